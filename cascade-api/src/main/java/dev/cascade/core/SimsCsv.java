package dev.cascade.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A run's results as a tidy CSV, one row per sim and finished kernel, for pandas and the like
 * ({@code pandas.read_csv} takes it as is): the columns that say which sim and kernel a row is and
 * what produced it ({@link #ID_COLUMNS}), then every numeric statistic any kernel's block had, in
 * the order they first appear. RFC 4180 with {@code \r\n} line ends; numbers plain (no exponent, no
 * thousands separator, never quoted); an empty cell where a value is missing (a statistic the
 * kernel's block did not print, an unknown hash).
 *
 * <p>A run with variants ({@link RunEntry#params}) has, after the id columns, {@code base_config}
 * and one column per parameter any of its entries sets, named as the parameter ({@code
 * -gpgpu_n_clusters}), holding each row's value (empty where its entry leaves the parameter as its
 * base has it): so pandas pivots a sweep by its parameters.
 */
public final class SimsCsv {

  /** The first columns, in order; the statistics follow. */
  public static final List<String> ID_COLUMNS =
      List.of(
          "run_id",
          "trace_id",
          "gpu_config",
          "replica",
          "attempt",
          "sim_id",
          "sim_state",
          "kernel_window",
          "kernel_position",
          "kernel_number",
          "kernel_uid",
          "kernel_instance",
          "kernel",
          "kernel_readable",
          "cycles",
          "instructions",
          "ipc",
          "trace_hash",
          "config_hash",
          "simulator",
          "accel_sim_build",
          "gpgpu_sim_build",
          "reused_from");

  private SimsCsv() {}

  /**
   * Writes the rows of the latest attempt of each of the run's sims, in the run's sim order, each
   * sim's kernels in log order; a sim still running gives the kernels it has finished. {@code
   * kernels} is asked twice per sim (once for the columns, once for the rows), so memory holds one
   * sim's kernels at a time. A statistic whose name is also an id column is written as {@code
   * stat:NAME}.
   */
  public static void write(Run run, Function<Sim, List<KernelResult>> kernels, Appendable out)
      throws IOException {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(kernels, "kernels");
    Objects.requireNonNull(out, "out");
    Set<String> stats = new LinkedHashSet<>();
    Set<String> names = new LinkedHashSet<>();
    for (Sim sim : run.latestAttempts()) {
      for (KernelResult kernel : kernels.apply(sim)) {
        stats.addAll(kernel.stats().keySet());
        names.add(kernel.name());
      }
    }
    KernelNames.system().readable(names); // one demangler call for all
    List<String> header = new ArrayList<>(ID_COLUMNS);
    java.util.Map<String, RunEntry> entries = new java.util.HashMap<>();
    Set<String> params = new LinkedHashSet<>();
    for (RunEntry entry : run.entries()) {
      entries.put(entry.name(), entry);
      params.addAll(entry.params().keySet());
    }
    if (!params.isEmpty()) {
      header.add("base_config");
      header.addAll(params);
    }
    for (String stat : stats) {
      header.add(ID_COLUMNS.contains(stat) ? "stat:" + stat : stat);
    }
    CsvCells.row(out, header);
    for (Sim sim : run.latestAttempts()) {
      KernelWindow window = sim.kernels() == null ? null : KernelWindow.parse(sim.kernels());
      for (KernelResult kernel : kernels.apply(sim)) {
        List<String> cells = new ArrayList<>(header.size());
        Provenance provenance = sim.provenance();
        cells.add(run.id());
        cells.add(run.traceId());
        cells.add(sim.gpuConfig());
        cells.add(Integer.toString(sim.replica()));
        cells.add(Integer.toString(sim.attempt()));
        cells.add(sim.id());
        cells.add(sim.state().wireName());
        cells.add(text(sim.kernels()));
        cells.add(Integer.toString(kernel.position()));
        cells.add(Integer.toString(number(window, kernel.position())));
        cells.add(Long.toString(kernel.uid()));
        cells.add(Integer.toString(kernel.instance()));
        cells.add(kernel.name());
        cells.add(KernelNames.system().readable(kernel.name()));
        cells.add(Long.toString(kernel.cycles()));
        cells.add(Long.toString(kernel.instructions()));
        cells.add(CsvCells.number(kernel.ipc()));
        cells.add(text(provenance.traceHash()));
        cells.add(text(provenance.configHash()));
        cells.add(text(provenance.simulator()));
        cells.add(text(provenance.accelSimBuild()));
        cells.add(text(provenance.gpgpuSimBuild()));
        cells.add(text(provenance.reusedFrom()));
        if (!params.isEmpty()) {
          RunEntry entry = entries.get(sim.gpuConfig());
          cells.add(entry == null ? "" : entry.gpuConfig());
          for (String param : params) {
            cells.add(entry == null ? "" : entry.params().getOrDefault(param, ""));
          }
        }
        for (String stat : stats) {
          Number value = kernel.stats().get(stat);
          cells.add(value == null ? "" : number(value));
        }
        CsvCells.row(out, cells);
      }
    }
  }

  /** The kernel's place in the trace's {@code kernelslist.g}, from 1, through its window. */
  private static int number(KernelWindow window, int position) {
    if (window != null && position < window.positions().size()) {
      return window.positions().get(position);
    }
    return position + 1;
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }

  private static String number(Number value) {
    if (value instanceof Long || value instanceof Integer) {
      return value.toString();
    }
    return CsvCells.number(value.doubleValue());
  }
}
