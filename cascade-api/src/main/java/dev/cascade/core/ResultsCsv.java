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
    write(results, baseline, List.of(), out);
  }

  /**
   * {@link #write(List, String, Appendable)} with, after its columns, for each of {@code measures}
   * beyond the defaults ({@link Results#compare(String, List)}): {@code <id>_mean}, {@code _stdev},
   * {@code _min}, {@code _max}, then {@code <id>_ratio} (row mean / baseline mean) and {@code
   * <id>_direction} ({@code higher}, {@code lower} or {@code same_within_spread}) against the same
   * row of the baseline config.
   *
   * @throws CascadeException {@code invalid} when {@code baseline} is not a config of the results
   */
  public static void write(
      List<ConfigResult> results, String baseline, List<Measure> measures, Appendable out)
      throws IOException {
    Objects.requireNonNull(out, "out");
    List<Measure> extra = measures.stream().filter(measure -> !measure.isDefault()).toList();
    List<ConfigSpeedups> speedups = Speedups.against(results, baseline);
    String baselineName = Speedups.baseline(results, baseline);
    ConfigResult base =
        results.stream()
            .filter(config -> config.gpuConfig().equals(baselineName))
            .findFirst()
            .orElse(null);
    KernelNames.system()
        .readable(
            results.stream()
                .flatMap(config -> config.kernels().stream().map(KernelComparison::name))
                .toList());
    List<String> header = new ArrayList<>(CSV_HEADER);
    for (Measure measure : extra) {
      for (String column : List.of("mean", "stdev", "min", "max", "ratio", "direction")) {
        header.add(measure.id() + "_" + column);
      }
    }
    CsvCells.row(out, header);
    for (int i = 0; i < results.size(); i++) {
      ConfigResult config = results.get(i);
      ConfigSpeedups speedup = speedups.get(i);
      for (KernelComparison kernel : config.kernels()) {
        List<String> cells =
            csvRow(
                config,
                "kernel",
                kernel,
                speedup,
                speedup.kernel(kernel.name(), kernel.instance()));
        addMeasures(
            cells,
            extra,
            kernel,
            base == null ? null : base.kernel(kernel.name(), kernel.instance()).orElse(null));
        CsvCells.row(out, cells);
      }
      List<String> cells = csvRow(config, "total", config.total(), speedup, speedup.total());
      if (config.sampling() != null) {
        // A sampled config's total is an estimate: its readable name says from what, and how sure.
        cells.set(CSV_HEADER.indexOf("kernel_readable"), config.sampling().summary());
      }
      addMeasures(cells, extra, config.total(), base == null ? null : base.total());
      CsvCells.row(out, cells);
    }
  }

  /** The extra measures' cells of a row; the change cells are empty without a baseline row. */
  private static void addMeasures(
      List<String> cells, List<Measure> extra, KernelComparison row, KernelComparison baseline) {
    for (Measure measure : extra) {
      Spread spread = row.spread(measure.id());
      for (double statistic : List.of(spread.mean(), spread.stdev(), spread.min(), spread.max())) {
        cells.add(spread.isEmpty() ? "" : CsvCells.number(statistic));
      }
      Spread base = baseline == null ? Spread.empty() : baseline.spread(measure.id());
      MeasureChange change = MeasureChange.between(base, spread, false);
      cells.add(
          change == null || base.mean() == 0 ? "" : CsvCells.number(spread.mean() / base.mean()));
      cells.add(change == null ? "" : change.direction().wireName());
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
