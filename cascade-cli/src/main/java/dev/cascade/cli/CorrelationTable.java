package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigCorrelation;
import dev.cascade.core.CorrelationFit;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelMatch;
import dev.cascade.core.KernelNames;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A run's kernels against the hardware's for people: per config of the trace's architecture, the
 * figures Accel-Sim's plot-correlation.py reports and each kernel's measured and simulated cycles
 * and time. Nothing is printed when the trace carries no hardware numbers.
 */
final class CorrelationTable {

  private static final int KERNEL_WIDTH = 48;

  private CorrelationTable() {}

  /**
   * Prints what {@code correlation} answers; a trace CSV that cannot be read is said in one line,
   * the results above it still stand.
   */
  static void print(PrintWriter out, Supplier<HardwareCorrelation> correlation) {
    HardwareCorrelation answer;
    try {
      answer = correlation.get();
    } catch (CascadeException e) {
      out.println();
      out.println("Against the hardware: " + e.getMessage());
      return;
    }
    print(out, answer);
  }

  static void print(PrintWriter out, HardwareCorrelation correlation) {
    if (correlation.source() == null) {
      return;
    }
    out.println();
    out.println(
        "Against the hardware ("
            + correlation.source()
            + ": "
            + correlation.measuredKernels()
            + " kernel launches measured on "
            + correlation.traceArch()
            + "), paired by launch order; cycles are gpc__cycles_elapsed.max, time"
            + " gpu__time_duration.sum:");
    for (String note : correlation.notes()) {
      out.println("  note: " + note);
    }
    for (ConfigCorrelation config : correlation.configs()) {
      out.println("  " + config.gpuConfig() + "  cycles: " + fit(config.cycles()));
      out.println(
          "  " + " ".repeat(config.gpuConfig().length()) + "  time:   " + fit(config.time()));
      TextTable table =
          new TextTable(
                  "KERNEL",
                  ">HW CYCLES",
                  ">SIM CYCLES",
                  ">ERROR",
                  ">HW TIME (us)",
                  ">SIM TIME (us)",
                  ">ERROR")
              .indent("    ");
      for (KernelMatch kernel : config.kernels()) {
        String readable = KernelNames.system().readable(kernel.name());
        table.row(
            KernelComparison.label(Formats.shorten(readable, KERNEL_WIDTH), kernel.instance()),
            kernel.measuredCycles() == null ? null : Formats.decimal(kernel.measuredCycles(), 0),
            Formats.decimal(kernel.simulatedCycles(), 0),
            percent(kernel.cyclesErrorPct()),
            kernel.measuredTimeUs() == null ? null : Formats.decimal(kernel.measuredTimeUs(), 3),
            kernel.simulatedTimeUs() == null ? null : Formats.decimal(kernel.simulatedTimeUs(), 3),
            percent(kernel.timeErrorPct()));
      }
      table.print(out);
      for (String note : config.notes()) {
        out.println("    note: " + note);
      }
    }
  }

  /** {@code correlation 0.998, MAE 12.3%, aggregate error 10.1%, NRMSE 0.120 (5 kernels)}. */
  static String fit(CorrelationFit fit) {
    if (fit == null) {
      return "-";
    }
    return String.format(
        Locale.ROOT,
        "correlation %s, MAE %.1f%%, aggregate error %.1f%%, NRMSE %.3f (%d kernels)",
        fit.pearson() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", fit.pearson()),
        fit.meanAbsErrorPct(),
        fit.aggregateErrorPct(),
        fit.nrmse(),
        fit.n());
  }

  private static String percent(Double value) {
    return value == null ? null : String.format(Locale.ROOT, "%+.1f%%", value);
  }
}
