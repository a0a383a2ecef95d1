package dev.cascade.core;

import dev.cascade.core.internal.output.SimKernels;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A run's results: per GPU config, per kernel and for the whole trace, the cycles, instructions,
 * IPC and simulated time ({@code cycles / core clock}) of its succeeded replicas, with their mean,
 * standard deviation, minimum and maximum ({@link Spread}). Read from the stored kernels of each
 * sim every time, so a run still going shows what it has so far.
 *
 * <pre>{@code
 * Results results = new Results(database, GpuConfigCatalog.builtIn());
 * for (ConfigResult config : results.compare(runId)) {
 *   System.out.println(config.gpuConfig() + ": " + config.total().cycles().mean() + " cycles");
 * }
 * }</pre>
 */
public final class Results {

  private static final List<String> MEASURES =
      List.of("cycles", "instructions", "ipc", "simulated_time_us");

  /** The CSV's columns, in order. */
  public static final List<String> CSV_HEADER = csvHeader();

  private final Database database;
  private final RunRepository runs;
  private final GpuConfigCatalog catalog;

  /**
   * Results of the runs in {@code database}, with each config's architecture and core clock taken
   * from {@code catalog}.
   */
  public Results(Database database, GpuConfigCatalog catalog) {
    this.database = Objects.requireNonNull(database, "database");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.runs = new RunRepository(database);
  }

  /**
   * The run's results, one per entry, in the run's entry order. Only succeeded sims count; a config
   * none of whose sims succeeded is still listed, with no kernels and empty spreads.
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  public List<ConfigResult> compare(String runId) {
    Objects.requireNonNull(runId, "runId");
    Run run =
        runs.find(runId)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "run \"" + runId + "\" does not exist; list the runs to find its id",
                        "run_id"));
    Map<String, List<SimKernels.Headline>> kernelsBySim = new HashMap<>();
    for (SimKernels.Headline kernel :
        database.read(connection -> SimKernels.headlines(connection, runId))) {
      kernelsBySim.computeIfAbsent(kernel.simId(), id -> new ArrayList<>()).add(kernel);
    }
    List<ConfigResult> results = new ArrayList<>();
    for (RunEntry entry : run.entries()) {
      List<Sim> sims =
          run.sims().stream().filter(sim -> sim.gpuConfig().equals(entry.gpuConfig())).toList();
      results.add(configResult(entry.gpuConfig(), sims, kernelsBySim));
    }
    return List.copyOf(results);
  }

  /**
   * The run's results as CSV ({@link #writeCsv(List, Appendable)}).
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  public String csv(String runId) {
    StringBuilder out = new StringBuilder();
    try {
      writeCsv(compare(runId), out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not fail
    }
    return out.toString();
  }

  /**
   * Writes the run's results as CSV to {@code out} ({@link #writeCsv(List, Appendable)}).
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  public void writeCsv(String runId, Appendable out) throws IOException {
    writeCsv(compare(runId), out);
  }

  /**
   * Writes results as CSV (RFC 4180, {@code \r\n} line ends): the {@link #CSV_HEADER} row, then per
   * config a {@code kernel} row for each kernel and a {@code total} row. Each measure has {@code
   * _mean}, {@code _stdev} (sample), {@code _min} and {@code _max} columns; they are empty when no
   * replica had the number ({@code n} 0) or, for the simulated time, when the clock is unknown.
   */
  public static void writeCsv(List<ConfigResult> results, Appendable out) throws IOException {
    Objects.requireNonNull(out, "out");
    row(out, CSV_HEADER);
    for (ConfigResult config : results) {
      for (KernelComparison kernel : config.kernels()) {
        row(out, csvRow(config, "kernel", kernel));
      }
      row(out, csvRow(config, "total", config.total()));
    }
  }

  // ---------------------------------------------------------------------------------------------

  private ConfigResult configResult(
      String gpuConfig, List<Sim> sims, Map<String, List<SimKernels.Headline>> kernelsBySim) {
    List<String> notes = new ArrayList<>();
    Optional<GpuConfig> config = findConfig(gpuConfig, notes);
    String arch = config.map(GpuConfig::arch).orElse(null);
    Double clockMhz =
        config
            .map(GpuConfig::clockMhz)
            .filter(clock -> clock > 0 && Double.isFinite(clock))
            .orElse(null);
    if (config.isPresent() && clockMhz == null) {
      notes.add(
          "GPU config \""
              + gpuConfig
              + "\" has no core clock in the catalog ("
              + config.get().reason()
              + "); simulated times are left out");
    }

    List<Sim> succeeded =
        sims.stream()
            .filter(sim -> sim.state() == SimState.SUCCEEDED)
            .sorted((a, b) -> Integer.compare(a.replica(), b.replica()))
            .toList();
    Map<KernelKey, Series> kernels = new LinkedHashMap<>();
    Series total = new Series();
    for (Sim sim : succeeded) {
      long cycles = 0;
      long instructions = 0;
      for (SimKernels.Headline kernel : kernelsBySim.getOrDefault(sim.id(), List.of())) {
        kernels
            .computeIfAbsent(new KernelKey(kernel.name(), kernel.instance()), key -> new Series())
            .add(sim.replica(), kernel.cycles(), kernel.instructions());
        cycles += kernel.cycles();
        instructions += kernel.instructions();
      }
      total.add(sim.replica(), cycles, instructions);
      String outcome = sim.progress().logOutcome();
      if (outcome != null && !outcome.equals("complete")) {
        notes.add(
            "replica "
                + sim.replica()
                + " succeeded but its log ended "
                + outcome.replace('_', ' ')
                + (outcome.equals("not_final")
                    ? " (a cycle or instruction limit): its last kernel's numbers are not final"
                    : ""));
      }
    }
    List<KernelComparison> comparisons = new ArrayList<>();
    kernels.forEach(
        (key, series) -> comparisons.add(series.compare(key.name, key.instance, clockMhz)));
    return new ConfigResult(
        gpuConfig,
        arch,
        clockMhz,
        sims.size(),
        succeeded.size(),
        comparisons,
        total.compare(KernelComparison.TOTAL, 0, clockMhz),
        notes);
  }

  private Optional<GpuConfig> findConfig(String gpuConfig, List<String> notes) {
    try {
      Optional<GpuConfig> config = catalog.find(gpuConfig);
      if (config.isEmpty()) {
        notes.add(
            "GPU config \""
                + gpuConfig
                + "\" is no longer in the catalog ("
                + catalog.source()
                + "), so its core clock is unknown; simulated times are left out");
      }
      return config;
    } catch (CascadeException e) {
      notes.add(
          "the GPU config catalog cannot be read ("
              + e.getMessage()
              + "); simulated times of \""
              + gpuConfig
              + "\" are left out");
      return Optional.empty();
    }
  }

  private record KernelKey(String name, int instance) {}

  /** One kernel's (or the total's) numbers, one entry per replica that had it. */
  private static final class Series {
    private final List<Integer> replicas = new ArrayList<>();
    private final List<Double> cycles = new ArrayList<>();
    private final List<Double> instructions = new ArrayList<>();
    private final List<Double> ipc = new ArrayList<>();

    void add(int replica, long kernelCycles, long kernelInstructions) {
      if (!replicas.isEmpty() && replicas.get(replicas.size() - 1) == replica) {
        return; // a replica's log cannot have the same (name, instance) twice; keep the first
      }
      replicas.add(replica);
      cycles.add((double) kernelCycles);
      instructions.add((double) kernelInstructions);
      ipc.add(kernelCycles == 0 ? 0.0 : (double) kernelInstructions / kernelCycles);
    }

    KernelComparison compare(String name, int instance, Double clockMhz) {
      Spread time =
          clockMhz == null
              ? Spread.empty()
              : Spread.of(cycles.stream().map(value -> value / clockMhz).toList());
      return new KernelComparison(
          name,
          instance,
          replicas,
          Spread.of(cycles),
          Spread.of(instructions),
          Spread.of(ipc),
          time);
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
                "instance",
                "n"));
    for (String measure : MEASURES) {
      for (String statistic : List.of("mean", "stdev", "min", "max")) {
        header.add(measure + "_" + statistic);
      }
    }
    return List.copyOf(header);
  }

  private static List<String> csvRow(ConfigResult config, String row, KernelComparison kernel) {
    List<String> cells = new ArrayList<>(CSV_HEADER.size());
    cells.add(config.gpuConfig());
    cells.add(config.arch() == null ? "" : config.arch());
    cells.add(config.clockMhz() == null ? "" : number(config.clockMhz()));
    cells.add(Integer.toString(config.replicas()));
    cells.add(Integer.toString(config.succeeded()));
    cells.add(row);
    cells.add(row.equals("total") ? "" : kernel.name());
    cells.add(row.equals("total") ? "" : Integer.toString(kernel.instance()));
    cells.add(Integer.toString(kernel.n()));
    for (Spread spread :
        List.of(kernel.cycles(), kernel.instructions(), kernel.ipc(), kernel.simulatedTimeUs())) {
      for (double statistic : List.of(spread.mean(), spread.stdev(), spread.min(), spread.max())) {
        cells.add(spread.isEmpty() ? "" : number(statistic));
      }
    }
    return cells;
  }

  /** A number as plain decimal text: no exponent, no trailing {@code .0}. */
  private static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return new BigDecimal(Double.toString(value)).toPlainString();
  }

  private static void row(Appendable out, List<String> cells) throws IOException {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(quote(cells.get(i)));
    }
    out.append("\r\n");
  }

  private static String quote(String cell) {
    if (cell.indexOf(',') < 0
        && cell.indexOf('"') < 0
        && cell.indexOf('\n') < 0
        && cell.indexOf('\r') < 0) {
      return cell;
    }
    return '"' + cell.replace("\"", "\"\"") + '"';
  }
}
