package dev.cascade.cli;

import dev.cascade.accelsim.stats.BuildString;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogBuilds;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.StatsWriter;
import dev.cascade.core.KernelNames;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code cascade stats} without {@code --json} or {@code --csv}: a readable table per file, kernel
 * names demangled as the results show them ({@link KernelNames}); the JSON and CSV keep the names
 * the log has.
 */
final class StatsTable implements StatsWriter {
  private static final String ROW = "%8s %8s %14s %14s %10s  %s%n";

  private final PrintWriter out;
  private LogBuilds builds = LogBuilds.NONE;
  private boolean firstFile = true;
  private boolean headerPrinted;
  private int kernels;
  private long cycles;
  private long instructions;

  private final KernelNames names;

  StatsTable(PrintWriter out) {
    this(out, KernelNames.system());
  }

  StatsTable(PrintWriter out, KernelNames names) {
    this.out = out;
    this.names = names;
  }

  @Override
  public void beginFile(String file) {
    if (!firstFile) {
      out.println();
    }
    firstFile = false;
    builds = LogBuilds.NONE;
    headerPrinted = false;
    kernels = 0;
    cycles = 0;
    instructions = 0;
    out.println(file);
  }

  @Override
  public void onBuild(BuildString build) {
    builds = builds.with(build);
  }

  private void header() {
    if (!headerPrinted) {
      headerPrinted = true;
      out.println(
          "  build: Accel-Sim "
              + (builds.accelSim() == null ? "(none)" : builds.accelSim())
              + ", GPGPU-Sim "
              + (builds.gpgpuSim() == null ? "(none)" : builds.gpgpuSim()));
      out.printf(ROW, "uid", "instance", "cycles", "thread_insn", "ipc", "kernel");
    }
  }

  @Override
  public void onKernelFinished(KernelStats kernel) {
    header();
    kernels++;
    cycles += kernel.cycles();
    instructions += kernel.instructions();
    out.printf(
        ROW,
        kernel.uid(),
        kernel.instance(),
        kernel.cycles(),
        kernel.instructions(),
        ipc(kernel.ipc()),
        names.readable(kernel.name()));
  }

  @Override
  public void endFile(LogOutcome outcome) {
    header();
    out.printf(
        ROW,
        "",
        "total",
        cycles,
        instructions,
        ipc(cycles == 0 ? 0 : (double) instructions / cycles),
        kernels + (kernels == 1 ? " kernel" : " kernels"));
    out.println("  outcome: " + outcome.state().label() + " (" + outcome.reason() + ")");
  }

  private static String ipc(double ipc) {
    return String.format(Locale.ROOT, "%.4f", ipc);
  }
}
