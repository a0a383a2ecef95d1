package dev.cascade.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Compares runs with a baseline run: the same configs before and after a simulator change, or one
 * trace against a variant of it. Configs are matched by name, kernels by launch ({@code name#n});
 * each change is tested against the replicas' spread as {@link Speedup} does.
 */
public final class RunComparisons {

  /** The most runs one comparison takes. */
  public static final int MAX_RUNS = 16;

  /** How a change's direction is decided, for people (the rule of {@link Speedup}). */
  public static final String SPREAD_RULE =
      "A change is higher or lower only when the two runs' replica ranges [min..max] do not"
          + " overlap; otherwise it is the same within spread. With one replica each any"
          + " difference counts: the simulator is deterministic.";

  /** The measures every comparison has, each a field of {@link KernelChange}. */
  public static final List<String> FIXED_MEASURES = List.of("cycles", "ipc", "simulated_time_us");

  private RunComparisons() {}

  /**
   * The measures of {@code requested} a comparison adds to the fixed three ({@link
   * #FIXED_MEASURES}), once each in request order: any statistic, and {@code instructions}.
   */
  public static List<Measure> extraMeasures(List<Measure> requested) {
    Objects.requireNonNull(requested, "requested");
    for (Measure measure : requested) {
      if (measure.id().equals("position")) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "measures: \"position\" is a field of every compared kernel, not a statistic",
            "measures");
      }
    }
    return requested.stream()
        .filter(measure -> !FIXED_MEASURES.contains(measure.id()))
        .distinct()
        .toList();
  }

  /**
   * Run ids from the text of {@code ?runs=A,B,C}: split at commas, spaces trimmed.
   *
   * @throws CascadeException {@code invalid} naming {@code runs} when the text is missing or has an
   *     empty id
   */
  public static List<String> parseRunIds(String text) {
    if (text == null || text.isBlank()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "runs is missing: give the run ids to compare separated by commas, the baseline first"
              + " (?runs=A,B)",
          "runs");
    }
    List<String> ids = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      if (part.isBlank()) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "runs \"" + shorten(text) + "\" has an empty run id; separate the ids by single commas",
            "runs");
      }
      ids.add(part.strip());
    }
    return ids;
  }

  /**
   * Fetches the runs and their results and compares them, the first as the baseline.
   *
   * @throws CascadeException {@code invalid} naming {@code runs} for fewer than 2 ids, more than
   *     {@value #MAX_RUNS} or one named twice; {@code not_found} for an unknown run; {@code
   *     conflict} for a run with no results yet
   */
  public static RunComparison compare(Runs runs, Results results, List<String> runIds) {
    return compare(runs, results, runIds, List.of());
  }

  /**
   * {@link #compare(Runs, Results, List)} with, per kernel and in total, the change of each of
   * {@code measures} beyond cycles, IPC and simulated time ({@link Measures#parseList}: any
   * statistic the simulator printed, by its own name).
   *
   * @throws CascadeException as {@link #compare(Runs, Results, List)}, and {@code invalid} naming
   *     {@code measures} when no finished kernel of a run printed a statistic asked for
   */
  public static RunComparison compare(
      Runs runs, Results results, List<String> runIds, List<Measure> measures) {
    Objects.requireNonNull(runs, "runs");
    Objects.requireNonNull(results, "results");
    Objects.requireNonNull(runIds, "runIds");
    List<Measure> extra = extraMeasures(measures);
    if (runIds.size() < 2 || runIds.size() > MAX_RUNS) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "runs must name 2 to "
              + MAX_RUNS
              + " runs, the baseline first; got "
              + runIds.size()
              + (runIds.isEmpty() ? "" : " (\"" + shorten(String.join(",", runIds)) + "\")"),
          "runs");
    }
    Set<String> seen = new HashSet<>();
    List<Run> found = new ArrayList<>();
    List<List<ConfigResult>> compared = new ArrayList<>();
    for (String id : runIds) {
      if (!seen.add(id)) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "runs names run \"" + shorten(id) + "\" twice; name each run once",
            "runs");
      }
      Run run =
          runs.find(id)
              .orElseThrow(
                  () ->
                      new CascadeException(
                          ErrorCode.NOT_FOUND,
                          "run \""
                              + shorten(id)
                              + "\" in runs does not exist; list the runs to find its id",
                          "runs"));
      List<ConfigResult> configs =
          extra.isEmpty() ? results.compare(run.id()) : results.compare(run.id(), extra);
      if (configs.stream().allMatch(config -> config.kernels().isEmpty())) {
        throw new CascadeException(
            ErrorCode.CONFLICT,
            "run \""
                + id
                + "\" in runs has no results "
                + (run.state() == RunState.ACTIVE
                    ? "yet: none of its sims has finished a kernel; wait for it"
                    : "(it is " + run.state().wireName() + "): no sim of it finished a kernel")
                + ", or compare another run",
            "runs");
      }
      found.add(run);
      compared.add(configs);
    }
    return of(found, compared, extra);
  }

  /** Compares {@code runs}, whose results are {@code results} (one list per run, in order). */
  public static RunComparison of(List<Run> runs, List<List<ConfigResult>> results) {
    return of(runs, results, List.of());
  }

  /**
   * Compares {@code runs}, whose results are {@code results} (one list per run, in order, compared
   * on {@code measures}), with the change of each of {@code measures} beyond the fixed three.
   */
  public static RunComparison of(
      List<Run> runs, List<List<ConfigResult>> results, List<Measure> measures) {
    List<Measure> extra = extraMeasures(measures);
    if (runs.size() < 2 || runs.size() != results.size()) {
      throw new IllegalArgumentException(
          "need 2 runs or more, each with its results; got "
              + runs.size()
              + " runs and "
              + results.size()
              + " results");
    }
    Run baseline = runs.get(0);
    List<RunComparison.ComparedRun> compared = new ArrayList<>();
    for (Run run : runs) {
      compared.add(
          new RunComparison.ComparedRun(
              run.id(), run.traceId(), run.state(), PartialResults.of(run).partial()));
    }
    List<RunChange> changes = new ArrayList<>();
    for (int i = 1; i < runs.size(); i++) {
      changes.add(change(baseline, results.get(0), runs.get(i), results.get(i), extra));
    }
    return new RunComparison(baseline.id(), compared, changes, extra);
  }

  private static RunChange change(
      Run baseline,
      List<ConfigResult> baseResults,
      Run run,
      List<ConfigResult> runResults,
      List<Measure> extra) {
    List<String> runNames = runResults.stream().map(ConfigResult::gpuConfig).toList();
    List<String> baseNames = baseResults.stream().map(ConfigResult::gpuConfig).toList();
    List<ConfigChange> configs = new ArrayList<>();
    for (ConfigResult base : baseResults) {
      int at = runNames.indexOf(base.gpuConfig());
      if (at >= 0) {
        configs.add(configChange(baseline, base, run, runResults.get(at), extra));
      }
    }
    return new RunChange(
        run.id(),
        configs,
        baseNames.stream().filter(name -> !runNames.contains(name)).toList(),
        runNames.stream().filter(name -> !baseNames.contains(name)).toList());
  }

  private static ConfigChange configChange(
      Run baseline, ConfigResult base, Run run, ConfigResult other, List<Measure> extra) {
    List<KernelChange> kernels = new ArrayList<>();
    List<String> onlyBase = new ArrayList<>();
    for (int i = 0; i < base.kernels().size(); i++) {
      KernelComparison kernel = base.kernels().get(i);
      other
          .kernel(kernel.name(), kernel.instance())
          .ifPresentOrElse(
              match -> kernels.add(KernelChange.between(kernels.size() + 1, kernel, match, extra)),
              () -> onlyBase.add(kernel.label()));
    }
    List<String> onlyOther =
        other.kernels().stream()
            .filter(kernel -> base.kernel(kernel.name(), kernel.instance()).isEmpty())
            .map(KernelComparison::label)
            .toList();
    List<String> notes = new ArrayList<>();
    if (!onlyBase.isEmpty()) {
      notes.add(kernelsOnlyIn(onlyBase, baseline.id()));
    }
    if (!onlyOther.isEmpty()) {
      notes.add(kernelsOnlyIn(onlyOther, run.id()));
    }
    for (var side : List.of(new Side(baseline, base), new Side(run, other))) {
      if (side.result.succeeded() == 0) {
        notes.add(
            "no replica of \""
                + base.gpuConfig()
                + "\" in run \""
                + side.run.id()
                + "\" has succeeded, so there is no total to compare");
      }
    }
    return new ConfigChange(
        base.gpuConfig(),
        kernels,
        KernelChange.between(0, base.total(), other.total(), extra),
        inputs(base, baseline, other, run),
        notes);
  }

  private record Side(Run run, ConfigResult result) {}

  private static String kernelsOnlyIn(List<String> labels, String runId) {
    return "only run \""
        + runId
        + "\" has "
        + String.join(", ", labels)
        + ": "
        + (labels.size() == 1 ? "it is" : "they are")
        + " not compared";
  }

  private static List<InputDifference> inputs(
      ConfigResult baseResult, Run baseline, ConfigResult runResult, Run run) {
    String gpuConfig = baseResult.gpuConfig();
    List<Provenance> base = provenances(baseline, gpuConfig);
    List<Provenance> other = provenances(run, gpuConfig);
    List<InputDifference> inputs = new ArrayList<>();
    String baseHash = value(base, Provenance::traceHash);
    String otherHash = value(other, Provenance::traceHash);
    String baseTrace = baseline.traceId() + " (" + baseHash + ")";
    String otherTrace = run.traceId() + " (" + otherHash + ")";
    InputDifference.Status traceStatus =
        baseHash.equals(InputDifference.UNKNOWN) || otherHash.equals(InputDifference.UNKNOWN)
            ? (baseline.traceId().equals(run.traceId())
                ? InputDifference.Status.UNKNOWN
                : InputDifference.Status.DIFFERS)
            : baseHash.equals(otherHash)
                ? InputDifference.Status.SAME
                : InputDifference.Status.DIFFERS;
    inputs.add(new InputDifference(InputDifference.TRACE, baseTrace, otherTrace, traceStatus));
    inputs.add(
        InputDifference.of(
            InputDifference.CONFIG,
            value(base, Provenance::configHash),
            value(other, Provenance::configHash)));
    inputs.add(
        InputDifference.of(
            InputDifference.SIMULATOR,
            value(base, Provenance::simulator),
            value(other, Provenance::simulator)));
    inputs.add(
        InputDifference.of(
            InputDifference.SIMULATOR_BUILD,
            value(base, RunComparisons::builds),
            value(other, RunComparisons::builds)));
    if (!baseResult.params().isEmpty() || !runResult.params().isEmpty()) {
      // A variant's content hash says that it differs; its options say how.
      inputs.add(
          InputDifference.of(
              InputDifference.CONFIG_OPTIONS, options(baseResult), options(runResult)));
    }
    return inputs;
  }

  /** {@code SM80_A100 with -gpgpu_kernel_launch_latency 1000}, or the config as it is. */
  private static String options(ConfigResult result) {
    if (result.params().isEmpty()) {
      return result.base() + " as it is";
    }
    List<String> set = new ArrayList<>();
    result.params().forEach((option, value) -> set.add(option + " " + value));
    return result.base() + " with " + String.join(", ", set);
  }

  /** The provenance of the config's succeeded sims, or of all its latest attempts if none. */
  private static List<Provenance> provenances(Run run, String gpuConfig) {
    List<Sim> sims =
        run.latestAttempts().stream().filter(sim -> sim.gpuConfig().equals(gpuConfig)).toList();
    List<Sim> succeeded = sims.stream().filter(sim -> sim.state() == SimState.SUCCEEDED).toList();
    return (succeeded.isEmpty() ? sims : succeeded).stream().map(Sim::provenance).toList();
  }

  /** The sims' values of one input: one, several joined by " | ", or unknown when none has it. */
  private static String value(List<Provenance> provenances, Function<Provenance, String> field) {
    Set<String> values = new LinkedHashSet<>();
    for (Provenance provenance : provenances) {
      String value = field.apply(provenance);
      if (value != null) {
        values.add(value);
      }
    }
    return values.isEmpty() ? InputDifference.UNKNOWN : String.join(" | ", values);
  }

  /** {@code Accel-Sim X, GPGPU-Sim Y} as the log printed them; null when it printed neither. */
  private static String builds(Provenance provenance) {
    List<String> parts = new ArrayList<>();
    if (provenance.accelSimBuild() != null) {
      parts.add("Accel-Sim " + provenance.accelSimBuild());
    }
    if (provenance.gpgpuSimBuild() != null) {
      parts.add("GPGPU-Sim " + provenance.gpgpuSimBuild());
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  private static String shorten(String text) {
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
