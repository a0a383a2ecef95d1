package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ConfigSpeedups;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelNames;
import dev.cascade.core.KernelResult;
import dev.cascade.core.KernelSpeedup;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import dev.cascade.core.PartialResults;
import dev.cascade.core.Results;
import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.Speedup;
import dev.cascade.core.Speedups;
import dev.cascade.core.Spread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP API's JSON for what sims produced: a sim's kernels ({@code GET /api/sims/{id}/kernels},
 * {@code kernel} events) and a run's results ({@code GET /api/runs/{id}/results}), as {@code
 * write...}/{@code read...} pairs like {@link ApiJson}'s.
 */
public final class ResultsJson {

  private ResultsJson() {}

  // ------------------------------------------------------------------ kernels

  /**
   * One kernel of {@code GET /api/sims/{id}/kernels}: its headline numbers, {@code
   * simulated_time_us} ({@code cycles / clockMhz}, null when the clock is unknown), when it
   * finished and its wall time ({@code finished_at}, {@code wall_time_s}; null when unknown) and
   * {@code stats}.
   */
  public static Map<String, Object> writeKernel(KernelResult kernel, Double clockMhz) {
    Map<String, Object> fields = kernelFields(kernel);
    // Not in kernel events: those are written while output is stored, with no demangler run.
    fields.put("readable_name", KernelNames.system().readable(kernel.name()));
    fields.put("simulated_time_us", clockMhz == null ? null : kernel.cycles() / clockMhz);
    fields.put("finished_at", kernel.finishedAt() == null ? null : kernel.finishedAt().toString());
    fields.put("wall_time_s", wallSeconds(kernel));
    fields.put("stats", kernel.stats());
    return fields;
  }

  /**
   * The data of a {@code kernel} event: the headline numbers without {@code stats}; {@code
   * simulated_time_us} only when the clock is known, {@code finished_at} and {@code wall_time_s}
   * only when they are.
   */
  public static Map<String, Object> writeKernelEvent(KernelResult kernel, Double clockMhz) {
    Map<String, Object> fields = kernelFields(kernel);
    if (clockMhz != null) {
      fields.put("simulated_time_us", kernel.cycles() / clockMhz);
    }
    if (kernel.finishedAt() != null) {
      fields.put("finished_at", kernel.finishedAt().toString());
    }
    if (kernel.wallTime() != null) {
      fields.put("wall_time_s", wallSeconds(kernel));
    }
    return fields;
  }

  /** A kernel's wall time in seconds, to the millisecond; null when unknown. */
  private static Double wallSeconds(KernelResult kernel) {
    return kernel.wallTime() == null ? null : kernel.wallTime().toMillis() / 1000.0;
  }

  /** A kernel, from the kernels list or a {@code kernel} event (whose stats are empty). */
  public static KernelResult readKernel(JsonNode node) {
    Fields kernel = Fields.of(node, "a kernel");
    return new KernelResult(
        kernel.integer("position"),
        kernel.text("name"),
        kernel.whole("uid"),
        kernel.integer("instance"),
        kernel.whole("cycles"),
        kernel.whole("instructions"),
        kernel.number("ipc"),
        kernel.numberMap("stats"),
        kernel.timeOrNull("finished_at"),
        wallTime(kernel.numberOrNull("wall_time_s")));
  }

  private static Duration wallTime(Double seconds) {
    return seconds == null ? null : Duration.ofMillis(Math.round(seconds * 1000));
  }

  /**
   * {@code GET /api/sims/{id}/kernels}: the sim's config, replica, state and clock ({@code null}
   * when unknown), and its kernels in log order.
   */
  public static Map<String, Object> writeSimKernels(
      Sim sim, Double clockMhz, List<KernelResult> kernels) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("sim_id", sim.id());
    body.put("run_id", sim.runId());
    body.put("gpu_config", sim.gpuConfig());
    body.put("replica", sim.replica());
    body.put("state", sim.state().wireName());
    body.put("clock_mhz", clockMhz);
    // A kernel window's n-th kernel is the trace's kernel simulated_kernels[n-1].
    body.put(
        "simulated_kernels",
        sim.kernels() == null ? null : KernelWindow.parse(sim.kernels()).positions());
    KernelNames.system().readable(kernels.stream().map(KernelResult::name).toList());
    body.put("kernels", kernels.stream().map(kernel -> writeKernel(kernel, clockMhz)).toList());
    return body;
  }

  /** The kernels of {@code GET /api/sims/{id}/kernels}. */
  public static List<KernelResult> readSimKernels(JsonNode node) {
    return Fields.of(node, "a sim's kernels").list("kernels", ResultsJson::readKernel);
  }

  private static Map<String, Object> kernelFields(KernelResult kernel) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("position", kernel.position());
    fields.put("name", kernel.name());
    fields.put("uid", kernel.uid());
    fields.put("instance", kernel.instance());
    fields.put("cycles", kernel.cycles());
    fields.put("instructions", kernel.instructions());
    fields.put("ipc", kernel.ipc());
    return fields;
  }

  // ------------------------------------------------------------------ results

  /** {@link #writeResults(Run, List, String)} against the run's first config. */
  public static Map<String, Object> writeResults(Run run, List<ConfigResult> configs) {
    return writeResults(run, configs, null);
  }

  /**
   * {@code GET /api/runs/{id}/results}: the run's id, trace and state, whether the results are
   * {@code partial} and what is to come ({@link PartialJson}), the {@code baseline} config ({@code
   * requestedBaseline}, or the first when null) and the rule that decides whether a difference is
   * larger than the spread, and a result per config whose kernels and total each carry their {@code
   * speedup} over the baseline.
   *
   * @throws dev.cascade.core.CascadeException {@code invalid} when {@code requestedBaseline} is not
   *     a config of the run
   */
  public static Map<String, Object> writeResults(
      Run run, List<ConfigResult> configs, String requestedBaseline) {
    return writeResults(run, configs, requestedBaseline, Measures.DEFAULTS);
  }

  /**
   * {@link #writeResults(Run, List, String)} with the {@code measures} the results were compared on
   * ({@link Results#compare(String, List)}): listed in {@code measures}, and each one beyond the
   * defaults as a spread under its id in every kernel row and total, with its change from the
   * baseline config in {@code versus_baseline} ({@link MeasureJson#writeChange}).
   */
  public static Map<String, Object> writeResults(
      Run run, List<ConfigResult> configs, String requestedBaseline, List<Measure> measures) {
    List<Measure> shown = Measures.withDefaults(measures);
    List<Measure> extra = shown.stream().filter(measure -> !measure.isDefault()).toList();
    List<ConfigSpeedups> speedups = Speedups.against(configs, requestedBaseline);
    KernelNames.system()
        .readable(
            configs.stream()
                .flatMap(config -> config.kernels().stream().map(KernelComparison::name))
                .toList()); // one demangler run for every name below
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run_id", run.id());
    body.put("trace_id", run.traceId());
    body.put("state", run.state().wireName());
    PartialResults partial = PartialResults.of(run);
    body.put("partial", partial.partial());
    body.put("progress", PartialJson.write(partial));
    body.put("baseline", Speedups.baseline(configs, requestedBaseline));
    body.put("spread_rule", SPREAD_RULE);
    body.put("measures", shown.stream().map(MeasureJson::write).toList());
    ConfigResult baseline =
        configs.stream()
            .filter(config -> config.gpuConfig().equals(body.get("baseline")))
            .findFirst()
            .orElse(null);
    List<Map<String, Object>> written = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      written.add(writeConfigResult(configs.get(i), speedups.get(i), extra, baseline));
    }
    body.put("configs", written);
    return body;
  }

  /** How {@code speedup.*.verdict} is decided, for people (see {@link Speedup}). */
  public static final String SPREAD_RULE =
      "A config is faster or slower than the baseline only when the two configs' replica ranges"
          + " [min..max] do not overlap; otherwise they are the same within spread and not ranked."
          + " With one replica each any difference counts: the simulator is deterministic.";

  /** The per-config results of {@code GET /api/runs/{id}/results}, in the run's entry order. */
  public static List<ConfigResult> readResults(JsonNode node) {
    List<Measure> extra =
        MeasureJson.readList(node).stream().filter(measure -> !measure.isDefault()).toList();
    return Fields.of(node, "a run's results")
        .list("configs", config -> readConfigResult(config, extra));
  }

  public static Map<String, Object> writeConfigResult(ConfigResult config) {
    return writeConfigResult(config, null);
  }

  /** A config's result; with {@code speedups}, each kernel and the total carry their speedup. */
  public static Map<String, Object> writeConfigResult(
      ConfigResult config, ConfigSpeedups speedups) {
    return writeConfigResult(config, speedups, List.of(), null);
  }

  private static Map<String, Object> writeConfigResult(
      ConfigResult config, ConfigSpeedups speedups, List<Measure> extra, ConfigResult baseline) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("base", config.base());
    fields.put("params", config.params());
    fields.put("arch", config.arch());
    fields.put("clock_mhz", config.clockMhz());
    fields.put("replicas", config.replicas());
    fields.put("succeeded", config.succeeded());
    List<Map<String, Object>> kernels = new ArrayList<>();
    for (KernelComparison kernel : config.kernels()) {
      Map<String, Object> written = writeKernelComparison(kernel, extra);
      if (speedups != null) {
        written.put("speedup", writeSpeedup(speedups.kernel(kernel.name(), kernel.instance())));
      }
      if (!extra.isEmpty()) {
        written.put(
            "versus_baseline",
            writeChanges(
                extra,
                baseline == null
                    ? null
                    : baseline.kernel(kernel.name(), kernel.instance()).orElse(null),
                kernel));
      }
      kernels.add(written);
    }
    fields.put("kernels", kernels);
    Map<String, Object> total = writeKernelComparison(config.total(), extra);
    if (speedups != null) {
      total.put("speedup", writeSpeedup(speedups.total()));
    }
    if (!extra.isEmpty()) {
      total.put(
          "versus_baseline",
          writeChanges(extra, baseline == null ? null : baseline.total(), config.total()));
    }
    fields.put("total", total);
    List<String> notes = new ArrayList<>(config.notes());
    if (speedups != null) {
      notes.addAll(speedups.notes());
    }
    fields.put("notes", notes);
    fields.put("sampling", SamplingJson.writeEstimate(config.sampling()));
    return fields;
  }

  /**
   * A kernel's speedup over the same kernel of the baseline: {@code cycles} and {@code
   * simulated_time}, each {@code {ratio, verdict}} or null when it cannot be taken; null when the
   * baseline lacks the kernel.
   */
  public static Map<String, Object> writeSpeedup(KernelSpeedup speedup) {
    if (speedup == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("cycles", writeSpeedupRatio(speedup.cycles()));
    fields.put("simulated_time", writeSpeedupRatio(speedup.simulatedTime()));
    return fields;
  }

  /** A speedup as {@code {ratio, verdict}}; null when there is none. */
  public static Map<String, Object> writeSpeedupRatio(Speedup speedup) {
    if (speedup == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("ratio", speedup.ratio());
    fields.put("verdict", speedup.verdict().wireName());
    return fields;
  }

  /** Each extra measure's change from the same row of the baseline; null when it lacks the row. */
  private static Map<String, Object> writeChanges(
      List<Measure> extra, KernelComparison baseline, KernelComparison row) {
    if (baseline == null) {
      return null;
    }
    Map<String, Object> changes = new LinkedHashMap<>();
    for (Measure measure : extra) {
      changes.put(
          measure.id(),
          MeasureJson.writeChange(
              measure, baseline.spread(measure.id()), row.spread(measure.id())));
    }
    return changes;
  }

  public static ConfigResult readConfigResult(JsonNode node) {
    return readConfigResult(node, List.of());
  }

  private static ConfigResult readConfigResult(JsonNode node, List<Measure> extra) {
    Fields config = Fields.of(node, "a config's result");
    return new ConfigResult(
        config.text("gpu_config"),
        config.textOrNull("arch"),
        config.numberOrNull("clock_mhz"),
        config.integer("replicas"),
        config.integer("succeeded"),
        config.list("kernels", kernel -> readKernelComparison(kernel, extra)),
        readKernelComparison(config.object("total"), extra),
        config.texts("notes"),
        config.textOrNull("base"),
        params(node.path("params")),
        SamplingJson.readEstimate(node.get("sampling")));
  }

  public static Map<String, Object> writeKernelComparison(KernelComparison kernel) {
    return writeKernelComparison(kernel, List.of());
  }

  /** A kernel's comparison with the spread of each {@code extra} measure under its id. */
  private static Map<String, Object> writeKernelComparison(
      KernelComparison kernel, List<Measure> extra) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", kernel.name());
    fields.put("readable_name", KernelNames.system().readable(kernel.name()));
    fields.put("label", kernel.label());
    fields.put("instance", kernel.instance());
    fields.put("n", kernel.n());
    fields.put("replicas", kernel.replicas());
    fields.put("cycles", writeSpread(kernel.cycles()));
    fields.put("instructions", writeSpread(kernel.instructions()));
    fields.put("ipc", writeSpread(kernel.ipc()));
    fields.put("simulated_time_us", writeSpread(kernel.simulatedTimeUs()));
    for (Measure measure : extra) {
      fields.put(measure.id(), writeSpread(kernel.spread(measure.id())));
    }
    fields.put("speedup", null); // set by writeResults, which knows the baseline
    fields.put("versus_baseline", null); // likewise, when measures beyond the defaults are asked
    return fields;
  }

  public static KernelComparison readKernelComparison(JsonNode node) {
    return readKernelComparison(node, List.of());
  }

  private static KernelComparison readKernelComparison(JsonNode node, List<Measure> extra) {
    Fields kernel = Fields.of(node, "a kernel's comparison");
    Map<String, Spread> measures = new LinkedHashMap<>();
    for (Measure measure : extra) {
      measures.put(measure.id(), readSpread(kernel.object(measure.id())));
    }
    return new KernelComparison(
        kernel.text("name"),
        kernel.integer("instance"),
        kernel.integers("replicas"),
        readSpread(kernel.object("cycles")),
        readSpread(kernel.object("instructions")),
        readSpread(kernel.object("ipc")),
        readSpread(kernel.object("simulated_time_us")),
        measures);
  }

  public static Map<String, Object> writeSpread(Spread spread) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("n", spread.n());
    fields.put("mean", spread.mean());
    fields.put("stdev", spread.stdev());
    fields.put("min", spread.min());
    fields.put("max", spread.max());
    fields.put("values", spread.values());
    return fields;
  }

  public static Spread readSpread(JsonNode node) {
    Fields spread = Fields.of(node, "a spread");
    return new Spread(
        spread.integer("n"),
        spread.number("mean"),
        spread.number("stdev"),
        spread.number("min"),
        spread.number("max"),
        spread.numbers("values"));
  }

  private static Map<String, String> params(JsonNode node) {
    Map<String, String> params = new LinkedHashMap<>();
    node.properties().forEach(field -> params.put(field.getKey(), field.getValue().asText()));
    return params;
  }
}
