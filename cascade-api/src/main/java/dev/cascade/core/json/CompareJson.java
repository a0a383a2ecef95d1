package dev.cascade.core.json;

import dev.cascade.core.ConfigChange;
import dev.cascade.core.InputDifference;
import dev.cascade.core.KernelChange;
import dev.cascade.core.KernelNames;
import dev.cascade.core.Measure;
import dev.cascade.core.MeasureChange;
import dev.cascade.core.RunChange;
import dev.cascade.core.RunComparison;
import dev.cascade.core.RunComparisons;
import dev.cascade.core.Spread;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON of {@code GET /api/compare?runs=A,B}: runs against a baseline run. */
public final class CompareJson {

  private CompareJson() {}

  /** What each measure is, for people: which clock's cycles, which level's IPC. */
  public static final Map<String, String> MEASURES =
      measures(
          "cycles",
          "simulated cycles of the GPU config's core clock (gpu_sim_cycle)",
          "ipc",
          "thread-level IPC: the simulator's thread instructions per core cycle"
              + " (gpu_sim_insn / gpu_sim_cycle), not the trace's warp instructions",
          "simulated_time_us",
          "simulated time in microseconds: core cycles / the config's core clock in MHz");

  /**
   * {@code {baseline, spread_rule, measures, runs: [{run_id, trace_id, state, partial}], changes:
   * [{run_id, only_in_baseline, only_in_run, configs: [...]}]}}. Each measure compared beyond the
   * fixed three ({@link RunComparison#measures()}) is in {@code measures} (its id and what it
   * counts) and in every kernel row and total under its id, beside {@code simulated_time_us}.
   */
  public static Map<String, Object> write(RunComparison comparison) {
    KernelNames.system()
        .readable(
            comparison.changes().stream()
                .flatMap(change -> change.configs().stream())
                .flatMap(config -> config.kernels().stream().map(KernelChange::name))
                .toList()); // one demangler run for every name below
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("baseline", comparison.baseline());
    body.put("spread_rule", RunComparisons.SPREAD_RULE);
    body.put("measures", measures(comparison.measures()));
    body.put(
        "runs",
        comparison.runs().stream()
            .map(
                run -> {
                  Map<String, Object> fields = new LinkedHashMap<>();
                  fields.put("run_id", run.runId());
                  fields.put("trace_id", run.traceId());
                  fields.put("state", run.state().wireName());
                  fields.put("partial", run.partial());
                  return fields;
                })
            .toList());
    body.put(
        "changes",
        comparison.changes().stream()
            .map(change -> writeRunChange(change, comparison.measures()))
            .toList());
    return body;
  }

  /** The fixed measures' words, then each extra measure's id and what it counts. */
  private static Map<String, String> measures(List<Measure> extra) {
    if (extra.isEmpty()) {
      return MEASURES;
    }
    Map<String, String> all = new LinkedHashMap<>(MEASURES);
    for (Measure measure : extra) {
      all.put(measure.id(), measure.counts());
    }
    return all;
  }

  static Map<String, Object> writeRunChange(RunChange change) {
    return writeRunChange(change, List.of());
  }

  static Map<String, Object> writeRunChange(RunChange change, List<Measure> extra) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("run_id", change.runId());
    fields.put("only_in_baseline", change.onlyInBaseline());
    fields.put("only_in_run", change.onlyInRun());
    fields.put(
        "configs",
        change.configs().stream().map(config -> writeConfigChange(config, extra)).toList());
    return fields;
  }

  static Map<String, Object> writeConfigChange(ConfigChange config) {
    return writeConfigChange(config, List.of());
  }

  static Map<String, Object> writeConfigChange(ConfigChange config, List<Measure> extra) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("differs", config.differs());
    fields.put("inputs", config.inputs().stream().map(CompareJson::writeInput).toList());
    fields.put(
        "kernels",
        config.kernels().stream().map(kernel -> writeKernelChange(kernel, extra)).toList());
    fields.put("total", writeKernelChange(config.total(), extra));
    fields.put("notes", config.notes());
    return fields;
  }

  static Map<String, Object> writeInput(InputDifference input) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("input", input.input());
    fields.put("baseline", input.baseline());
    fields.put("run", input.run());
    fields.put("status", input.status().wireName());
    return fields;
  }

  static Map<String, Object> writeKernelChange(KernelChange kernel) {
    return writeKernelChange(kernel, List.of());
  }

  /** A kernel's change with each of {@code extra}'s under its id (null where a side lacks it). */
  static Map<String, Object> writeKernelChange(KernelChange kernel, List<Measure> extra) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("position", kernel.position());
    fields.put("name", kernel.name());
    fields.put("readable_name", KernelNames.system().readable(kernel.name()));
    fields.put("label", kernel.label());
    fields.put("instance", kernel.instance());
    fields.put("cycles", writeMeasureChange(kernel.cycles()));
    fields.put("ipc", writeMeasureChange(kernel.ipc()));
    fields.put("simulated_time_us", writeMeasureChange(kernel.simulatedTime()));
    for (Measure measure : extra) {
      fields.put(measure.id(), writeMeasureChange(kernel.measure(measure.id())));
    }
    return fields;
  }

  /**
   * {@code {baseline: {n, mean, min, max}, run: {...}, difference, relative, direction, speedup}};
   * null when either side has no replica.
   */
  static Map<String, Object> writeMeasureChange(MeasureChange change) {
    if (change == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("baseline", writeSummary(change.baseline()));
    fields.put("run", writeSummary(change.run()));
    fields.put("difference", change.difference());
    fields.put("relative", change.relative());
    fields.put("direction", change.direction().wireName());
    fields.put("speedup", ResultsJson.writeSpeedupRatio(change.speedup()));
    return fields;
  }

  static Map<String, Object> writeSummary(Spread spread) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("n", spread.n());
    fields.put("mean", spread.mean());
    fields.put("min", spread.min());
    fields.put("max", spread.max());
    return fields;
  }

  private static Map<String, String> measures(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }
}
