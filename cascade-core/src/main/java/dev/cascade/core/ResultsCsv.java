package dev.cascade.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Results as CSV: one row per config and kernel plus a total row, every spread in columns, and each
 * row's speedup over the baseline config with its verdict ({@link Speedup}).
 */
public final class ResultsCsv {

  private static final List<String> MEASURES =
      List.of("cycles", "thread_instructions", "ipc", "simulated_time_us");

  /** The CSV's columns, in order. */
  public static final List<String> CSV_HEADER = csvHeader();

  private ResultsCsv() {}

  /**
   * Writes results as CSV (RFC 4180, {@code \r\n} line ends): the {@link #CSV_HEADER} row, then per
   * config a {@code kernel} row for each kernel and a {@code total} row. Each measure has {@code
   * _mean}, {@code _stdev} (sample), {@code _min} and {@code _max} columns; they are empty when no
   * replica had the number ({@code n} 0) or, for the simulated time, when the clock is unknown.
   */
  public static void write(List<ConfigResult> results, Appendable out) throws IOException {
    write(results, null, out);
  }

  /**
   * {@link #write(List, Appendable)} with the speedups over {@code baseline} (the first config when
   * null): {@code speedup_cycles} and {@code speedup_simulated_time} are {@code baseline mean / row
   * mean}, each with a {@code _verdict} of {@code faster}, {@code slower} or {@code
   * same_within_spread}; empty when the baseline lacks the kernel. {@code kernel} is the name in
   * the log, {@code kernel_readable} the demangled, shortened one.
   *
   * @throws CascadeException {@code invalid} when {@code baseline} is not a config of the results
   */
  public static void write(List<ConfigResult> results, String baseline, Appendable out)
      throws IOException {
    Objects.requireNonNull(out, "out");
    List<ConfigSpeedups> speedups = Speedups.against(results, baseline);
    KernelNames.system()
        .readable(
            results.stream()
                .flatMap(config -> config.kernels().stream().map(KernelComparison::name))
                .toList());
    CsvCells.row(out, CSV_HEADER);
    for (int i = 0; i < results.size(); i++) {
      ConfigResult config = results.get(i);
      ConfigSpeedups speedup = speedups.get(i);
      for (KernelComparison kernel : config.kernels()) {
        CsvCells.row(
            out,
            csvRow(
                config,
                "kernel",
                kernel,
                speedup,
                speedup.kernel(kernel.name(), kernel.instance())));
      }
      CsvCells.row(out, csvRow(config, "total", config.total(), speedup, speedup.total()));
    }
  }

  private static List<String> csvHeader() {
    List<String> header =
        new ArrayList<>(
            List.of(
                "gpu_config",
                "arch",
                "clock_mhz",
                "replicas",
                "succeeded",
                "row",
                "kernel",
                "kernel_readable",
                "instance",
                "n"));
    for (String measure : MEASURES) {
      for (String statistic : List.of("mean", "stdev", "min", "max")) {
        header.add(measure + "_" + statistic);
      }
    }
    header.addAll(
        List.of(
            "baseline",
            "speedup_cycles",
            "speedup_cycles_verdict",
            "speedup_simulated_time",
            "speedup_simulated_time_verdict"));
    return List.copyOf(header);
  }

  private static List<String> csvRow(
      ConfigResult config,
      String row,
      KernelComparison kernel,
      ConfigSpeedups speedups,
      KernelSpeedup speedup) {
    List<String> cells = new ArrayList<>(CSV_HEADER.size());
    cells.add(config.gpuConfig());
    cells.add(config.arch() == null ? "" : config.arch());
    cells.add(config.clockMhz() == null ? "" : CsvCells.number(config.clockMhz()));
    cells.add(Integer.toString(config.replicas()));
    cells.add(Integer.toString(config.succeeded()));
    cells.add(row);
    cells.add(row.equals("total") ? "" : kernel.name());
    cells.add(row.equals("total") ? "" : KernelNames.system().readable(kernel.name()));
    cells.add(row.equals("total") ? "" : Integer.toString(kernel.instance()));
    cells.add(Integer.toString(kernel.n()));
    for (Spread spread :
        List.of(kernel.cycles(), kernel.instructions(), kernel.ipc(), kernel.simulatedTimeUs())) {
      for (double statistic : List.of(spread.mean(), spread.stdev(), spread.min(), spread.max())) {
        cells.add(spread.isEmpty() ? "" : CsvCells.number(statistic));
      }
    }
    cells.add(speedups.baseline());
    for (Speedup ratio :
        Arrays.asList(
            speedup == null ? null : speedup.cycles(),
            speedup == null ? null : speedup.simulatedTime())) {
      cells.add(ratio == null ? "" : CsvCells.number(ratio.ratio()));
      cells.add(ratio == null ? "" : ratio.verdict().wireName());
    }
    return cells;
  }
}
