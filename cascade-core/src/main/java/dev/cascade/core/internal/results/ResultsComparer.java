package dev.cascade.core.internal.results;

import dev.cascade.agent.emulator.EmulatedGpu;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import dev.cascade.core.Results;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Runs;
import dev.cascade.core.SampledEstimate;
import dev.cascade.core.SamplingPlan;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.Spread;
import dev.cascade.core.Trace;
import dev.cascade.core.internal.catalog.ConfigVariants;
import dev.cascade.core.internal.sampling.TraceSampling;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.HardwareRepository;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.TraceRepository;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Computes a run's {@link Results} from the stored kernels of each sim, every time, so a run still
 * going shows what it has so far ({@link dev.cascade.core.PartialResults} says what counts then).
 */
public final class ResultsComparer implements Results {

  private final RunRepository runs;
  private final KernelRepository kernels;
  private final TraceRepository traces;
  private final GpuConfigCatalog catalog;
  private final HardwareCorrelator hardware;
  private final RunExports exports;
  private final List<Measure> measures;
  private final TraceSampling sampling;

  /**
   * Results of the runs in {@code database}, with each config's architecture and core clock taken
   * from {@code catalog}; hardware numbers only from the API.
   */
  public ResultsComparer(Database database, GpuConfigCatalog catalog) {
    this(database, catalog, null);
  }

  /**
   * As {@link #ResultsComparer(Database, GpuConfigCatalog)}, also reading hardware numbers from
   * {@code hardware/*.csv} in each trace's folder under {@code tracesFolder}.
   */
  public ResultsComparer(Database database, GpuConfigCatalog catalog, Path tracesFolder) {
    this(database, catalog, tracesFolder, null);
  }

  /**
   * As {@link #ResultsComparer(Database, GpuConfigCatalog, Path)}, with the sims' kernels and logs
   * read from {@code simOutputs} for the CSV exports; without it they are not available.
   */
  public ResultsComparer(
      Database database, GpuConfigCatalog catalog, Path tracesFolder, Runs simOutputs) {
    this(database, catalog, tracesFolder, simOutputs, Measures.DEFAULTS);
  }

  /**
   * As {@link #ResultsComparer(Database, GpuConfigCatalog, Path, Runs)}, comparing {@code measures}
   * (the simulator's) when a request names none.
   */
  public ResultsComparer(
      Database database,
      GpuConfigCatalog catalog,
      Path tracesFolder,
      Runs simOutputs,
      List<Measure> measures) {
    Objects.requireNonNull(database, "database");
    this.measures = Measures.withDefaults(measures);
    this.exports = simOutputs == null ? null : new RunExports(simOutputs);
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.runs = new RunRepository(database);
    this.kernels = new KernelRepository(database);
    this.traces = new TraceRepository(database);
    this.hardware =
        new HardwareCorrelator(new HardwareRepository(database, Clock.systemUTC()), tracesFolder);
    this.sampling =
        new TraceSampling(traces::find, tracesFolder == null ? null : tracesFolder::resolve);
  }

  @Override
  public String simsCsv(String runId) {
    return requireExports().simsCsv(runId);
  }

  @Override
  public String getStatsCsv(String runId, boolean configsAsRows) {
    return requireExports().getStatsCsv(runId, configsAsRows);
  }

  private RunExports requireExports() {
    if (exports == null) {
      throw new IllegalStateException("these results were built without the sims' outputs");
    }
    return exports;
  }

  @Override
  public HardwareCorrelation correlate(String runId) {
    List<ConfigResult> results = compare(runId);
    Run run = runs.find(runId).orElseThrow();
    Trace trace =
        traces
            .find(run.traceId())
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "trace \""
                            + run.traceId()
                            + "\" of run \""
                            + runId
                            + "\" is no longer known",
                        "trace_id"));
    return hardware.correlate(trace, results);
  }

  /**
   * The run's results, one per entry, in the run's entry order. Only succeeded sims count, and
   * while the run is active the kernels its unfinished sims have finished; a config none of whose
   * sims succeeded is still listed, with empty spreads.
   *
   * @throws CascadeException {@code not_found} when there is no such run
   */
  @Override
  public List<ConfigResult> compare(String runId) {
    return compare(runId, measures);
  }

  @Override
  public List<Measure> measures() {
    return measures;
  }

  @Override
  public List<ConfigResult> compare(Run run) {
    return compare(run, measures);
  }

  @Override
  public List<ConfigResult> compare(String runId, List<Measure> measures) {
    Objects.requireNonNull(runId, "runId");
    return compare(
        runs.find(runId)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "run \"" + runId + "\" does not exist; list the runs to find its id",
                        "run_id")),
        measures);
  }

  /**
   * {@link #compare(Run)} with the spreads of {@code measures} beyond the defaults in each kernel's
   * {@link KernelComparison#measures()}.
   *
   * @throws CascadeException {@code invalid} naming {@code measures} when a statistic asked for is
   *     in no kernel the run has finished (with the names closest to it)
   */
  @Override
  public List<ConfigResult> compare(Run run, List<Measure> measures) {
    List<Measure> extra = measures.stream().filter(measure -> !measure.isDefault()).toList();
    KernelRepository.Statistics statistics = null;
    if (!extra.isEmpty()) {
      Set<String> keys = MeasureValues.keys(extra);
      statistics = kernels.statistics(run.sims().stream().map(Sim::id).toList(), keys);
      requireKnown(extra, keys, statistics);
    }
    Map<String, List<KernelRepository.Headline>> kernelsBySim = new HashMap<>();
    for (KernelRepository.Headline kernel :
        kernels.headlines(run.sims().stream().map(Sim::id).toList())) {
      kernelsBySim.computeIfAbsent(kernel.simId(), id -> new ArrayList<>()).add(kernel);
    }
    List<ConfigResult> results = new ArrayList<>();
    for (RunEntry entry : run.entries()) {
      List<Sim> sims =
          run.latestAttempts().stream()
              .filter(sim -> sim.gpuConfig().equals(entry.name()))
              .toList();
      ConfigResult result = configResult(entry, sims, kernelsBySim, extra, statistics);
      if (entry.sampling() != null) {
        result = sampled(run, entry, result, sims, kernelsBySim);
      }
      results.add(entry.kernels() == null ? result : KernelWindowNote.add(result, entry));
    }
    return List.copyOf(results);
  }

  /** A sampled entry's result, its total estimated from the trace's plan. */
  private ConfigResult sampled(
      Run run,
      RunEntry entry,
      ConfigResult result,
      List<Sim> sims,
      Map<String, List<KernelRepository.Headline>> kernelsBySim) {
    SamplingPlan plan;
    try {
      plan = sampling.plan(run.traceId(), entry.sampling().request());
    } catch (CascadeException e) {
      List<String> notes = new ArrayList<>(result.notes());
      notes.add(
          0,
          "sampled, but the trace's sampling plan cannot be made now ("
              + e.getMessage()
              + "): the total is the simulated kernels' own, not an estimate of the whole trace");
      return result.withSampling(result.total(), notes, null);
    }
    return SampledResults.estimate(
        result, entry, sims, kernelsBySim, plan, validation(entry.sampling().validationRun()));
  }

  /** What the run simulating the whole trace says so far; null when there is none. */
  private SampledEstimate.Validation validation(String runId) {
    if (runId == null) {
      return null;
    }
    Optional<Run> full = runs.find(runId);
    if (full.isEmpty()) {
      return new SampledEstimate.Validation(runId, "unknown", null, null);
    }
    ConfigResult whole = compare(full.get(), Measures.DEFAULTS).getFirst();
    Double cycles = whole.succeeded() > 0 ? whole.total().cycles().mean() : null;
    return new SampledEstimate.Validation(runId, full.get().state().wireName(), cycles, null);
  }

  // ---------------------------------------------------------------------------------------------

  /** Refuses statistics no finished kernel of the run printed, naming the closest it did. */
  private static void requireKnown(
      List<Measure> extra, Set<String> keys, KernelRepository.Statistics statistics) {
    if (statistics.keysOfFirst().isEmpty()) {
      return; // no kernel finished yet: nothing to check against
    }
    Set<String> seen = new HashSet<>(statistics.keysOfFirst());
    statistics.bySim().values().forEach(sim -> sim.values().forEach(k -> seen.addAll(k.keySet())));
    List<String> unknown = keys.stream().filter(key -> !seen.contains(key)).toList();
    if (unknown.isEmpty()) {
      return;
    }
    String key = unknown.getFirst();
    List<String> nearest = Measures.nearest(key, statistics.keysOfFirst(), 3);
    throw new CascadeException(
        ErrorCode.INVALID,
        "measures: no kernel of this run printed a statistic named \""
            + key
            + "\""
            + (unknown.size() > 1
                ? " (nor " + String.join(", ", unknown.subList(1, unknown.size())) + ")"
                : "")
            + (nearest.isEmpty()
                ? "; the tidy CSV (results/sims.csv) has every statistic as a column"
                : "; did you mean "
                    + String.join(", ", nearest.stream().map(n -> "\"" + n + "\"").toList())
                    + "?"),
        "measures");
  }

  private ConfigResult configResult(
      RunEntry entry,
      List<Sim> sims,
      Map<String, List<KernelRepository.Headline>> kernelsBySim,
      List<Measure> extra,
      KernelRepository.Statistics statistics) {
    String gpuConfig = entry.name();
    List<String> notes = new ArrayList<>();
    Optional<GpuConfig> config =
        gpuConfig.equals(entry.gpuConfig())
            ? findConfig(gpuConfig, notes)
            : findVariant(entry, notes);
    if (entry.isVariant()) {
      notes.add(
          0,
          "variant of "
              + entry.gpuConfig()
              + ": "
              + String.join(
                  ", ",
                  entry.params().entrySet().stream()
                      .map(p -> p.getKey() + " " + p.getValue())
                      .toList())
              + " set over its options");
      List<String> ignored = EmulatedGpu.notModelled(entry.params().keySet());
      boolean emulated =
          sims.stream()
              .anyMatch(
                  sim ->
                      sim.provenance() != null
                          && Emulation.BUILD.equals(sim.provenance().simulator()));
      if (emulated && !ignored.isEmpty()) {
        notes.add(
            1,
            "the emulator does not model "
                + String.join(", ", ignored)
                + ": its numbers do not follow "
                + (ignored.size() == 1 ? "it" : "them")
                + " (a real Accel-Sim run would)");
      }
    }
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
    // While the run is active, the kernels its unfinished sims have finished count too (see
    // PartialResults): a finished kernel's numbers are final, its sim's sum is not.
    List<Sim> counted =
        sims.stream()
            .filter(sim -> sim.state() == SimState.SUCCEEDED || !sim.state().isFinished())
            .sorted((a, b) -> Integer.compare(a.replica(), b.replica()))
            .toList();
    Map<KernelKey, Series> kernels = new LinkedHashMap<>();
    Series total = new Series();
    List<String> unfinished = new ArrayList<>();
    int unfinishedKernels = 0;
    for (Sim sim : counted) {
      long cycles = 0;
      long instructions = 0;
      List<KernelRepository.Headline> finished = kernelsBySim.getOrDefault(sim.id(), List.of());
      MeasureValues.Replica values =
          extra.isEmpty() ? null : extraValues(extra, finished, statistics, sim.id(), clockMhz);
      for (int i = 0; i < finished.size(); i++) {
        KernelRepository.Headline kernel = finished.get(i);
        kernels
            .computeIfAbsent(new KernelKey(kernel.name(), kernel.instance()), key -> new Series())
            .add(
                sim.replica(),
                kernel.cycles(),
                kernel.instructions(),
                values == null ? Map.of() : values.perKernel().get(i));
        cycles += kernel.cycles();
        instructions += kernel.instructions();
      }
      if (sim.state() != SimState.SUCCEEDED) {
        unfinished.add(Integer.toString(sim.replica()));
        unfinishedKernels += finished.size();
        continue;
      }
      total.add(sim.replica(), cycles, instructions, values == null ? Map.of() : values.total());
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
    if (!unfinished.isEmpty()) {
      notes.add(
          (unfinished.size() == 1 ? "replica " : "replicas ")
              + String.join(", ", unfinished)
              + " still to finish: "
              + (unfinishedKernels == 1
                  ? "the 1 kernel finished so far counts"
                  : "the " + unfinishedKernels + " kernels finished so far count")
              + " in the kernel rows, not in the total");
    }
    List<KernelComparison> comparisons = new ArrayList<>();
    kernels.forEach(
        (key, series) -> comparisons.add(series.compare(key.name, key.instance, clockMhz, extra)));
    KernelComparison whole = total.compare(KernelComparison.TOTAL, 0, clockMhz, extra);
    if (whole.n() > 1
        && whole.cycles().stdev() == 0
        && comparisons.stream()
            .allMatch(kernel -> kernel.cycles().min() == kernel.cycles().max())) {
      notes.add(
          "all "
              + whole.n()
              + " replicas agreed exactly on every kernel: "
              + (long) whole.cycles().mean()
              + " cycles in total, spread 0");
    }
    return new ConfigResult(
        gpuConfig,
        arch,
        clockMhz,
        sims.size(),
        succeeded.size(),
        comparisons,
        whole,
        notes,
        entry.gpuConfig(),
        entry.params(),
        null);
  }

  /** The extra measures' values for one sim, from its kernels' headlines and statistics. */
  private static MeasureValues.Replica extraValues(
      List<Measure> extra,
      List<KernelRepository.Headline> finished,
      KernelRepository.Statistics statistics,
      String simId,
      Double clockMhz) {
    Map<Integer, Map<String, Double>> byPosition = statistics.bySim().getOrDefault(simId, Map.of());
    List<MeasureValues.Kernel> kernels = new ArrayList<>(finished.size());
    for (KernelRepository.Headline kernel : finished) {
      kernels.add(
          new MeasureValues.Kernel(
              kernel.cycles(),
              kernel.instructions(),
              byPosition.getOrDefault(kernel.position(), Map.of())));
    }
    return MeasureValues.evaluate(extra, kernels, clockMhz);
  }

  /** A variant's config: known to the catalog once a run made it, else worked out again. */
  private Optional<GpuConfig> findVariant(RunEntry entry, List<String> notes) {
    Optional<GpuConfig> made = catalog.find(entry.name());
    if (made.isPresent()) {
      return made;
    }
    return findConfig(entry.gpuConfig(), notes)
        .flatMap(
            base -> {
              try {
                return Optional.of(
                    new ConfigVariants(catalog, null).effective(base, entry, "entries"));
              } catch (CascadeException e) {
                notes.add(
                    "variant \""
                        + entry.name()
                        + "\" cannot be made again ("
                        + e.getMessage()
                        + "); simulated times are left out");
                return Optional.empty();
              }
            });
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
    private final Map<String, List<Double>> extra = new HashMap<>();

    void add(
        int replica, long kernelCycles, long kernelInstructions, Map<String, Double> extraValues) {
      if (!replicas.isEmpty() && replicas.get(replicas.size() - 1) == replica) {
        return; // a replica's log cannot have the same (name, instance) twice; keep the first
      }
      replicas.add(replica);
      cycles.add((double) kernelCycles);
      instructions.add((double) kernelInstructions);
      ipc.add(kernelCycles == 0 ? 0.0 : (double) kernelInstructions / kernelCycles);
      extraValues.forEach(
          (id, value) -> {
            if (Double.isFinite(value)) { // a replica without the value is left out of its spread
              extra.computeIfAbsent(id, key -> new ArrayList<>()).add(value);
            }
          });
    }

    KernelComparison compare(
        String name, int instance, Double clockMhz, List<Measure> extraMeasures) {
      Spread time =
          clockMhz == null
              ? Spread.empty()
              : Spread.of(cycles.stream().map(value -> value / clockMhz).toList());
      Map<String, Spread> measures = new LinkedHashMap<>();
      for (Measure measure : extraMeasures) {
        measures.put(measure.id(), Spread.of(extra.getOrDefault(measure.id(), List.of())));
      }
      return new KernelComparison(
          name,
          instance,
          replicas,
          Spread.of(cycles),
          Spread.of(instructions),
          Spread.of(ipc),
          time,
          measures);
    }
  }
}
