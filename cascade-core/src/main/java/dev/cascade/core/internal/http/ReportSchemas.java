package dev.cascade.core.internal.http;

import static dev.cascade.core.internal.http.OpenApiJson.array;
import static dev.cascade.core.internal.http.OpenApiJson.bool;
import static dev.cascade.core.internal.http.OpenApiJson.described;
import static dev.cascade.core.internal.http.OpenApiJson.enumOf;
import static dev.cascade.core.internal.http.OpenApiJson.integer;
import static dev.cascade.core.internal.http.OpenApiJson.map;
import static dev.cascade.core.internal.http.OpenApiJson.mapOf;
import static dev.cascade.core.internal.http.OpenApiJson.nullable;
import static dev.cascade.core.internal.http.OpenApiJson.number;
import static dev.cascade.core.internal.http.OpenApiJson.object;
import static dev.cascade.core.internal.http.OpenApiJson.ref;
import static dev.cascade.core.internal.http.OpenApiJson.string;
import static dev.cascade.core.internal.http.OpenApiJson.time;

import java.util.List;
import java.util.Map;

/**
 * The schemas of what a sim reports (heartbeats, chunks) and of what the API reports from it: the
 * kernels a sim finished, a run's results across replicas, and the events of a run.
 */
final class ReportSchemas {

  private ReportSchemas() {}

  /** Adds the schemas to {@code schemas}, in the document's order. */
  static void addTo(Map<String, Object> schemas) {
    simContract(schemas);
    kernels(schemas);
    speed(schemas);
    results(schemas);
    schemas.put(
        "SimEventData",
        object(
            List.of("event_id", "run_id", "kind", "at", "data"),
            "event_id",
            integer(),
            "run_id",
            string(),
            "sim_id",
            nullable(string()),
            "kind",
            enumOf("sim", "kernel", "log", "action"),
            "at",
            time(),
            "data",
            map(
                "type",
                "object",
                "description",
                "sim: the sim as in a run; kernel: one finished kernel; log: {\"lines\": [...]}")));
  }

  /** What a sim sends and is answered (DESIGN.md section 7). */
  private static void simContract(Map<String, Object> schemas) {
    schemas.put(
        "Heartbeat",
        object(
            List.of("state"),
            "state",
            enumOf("running", "succeeded", "failed"),
            "error",
            nullable(string("Why it failed")),
            "exit_code",
            nullable(integer()),
            "chunks",
            map(
                "type",
                "integer",
                "minimum",
                0,
                "description",
                "Chunks produced so far (0 when absent)"),
            "peak_memory_bytes",
            map(
                "type",
                "integer",
                "minimum",
                0,
                "description",
                "The simulator process tree's peak resident memory so far, in bytes, as the sim"
                    + " agent sampled it; absent when not measured")));
    schemas.put(
        "HeartbeatReply",
        object(
            List.of("cancel"),
            "cancel",
            bool(),
            "missing",
            map(
                "type",
                "array",
                "items",
                integer(),
                "description",
                "Chunks to send again before the final heartbeat is applied")));
    schemas.put(
        "ChunkReceipt",
        object(
            List.of("stored"),
            "stored",
            map("type", "boolean", "description", "false when the chunk was already held")));
  }

  private static void speed(Map<String, Object> schemas) {
    String kips =
        "KIPS: thousands of simulated thread-level instructions per second of wall time, a"
            + " succeeded sim's final gpgpu_simulation_rate (inst/sec)";
    schemas.put(
        "BuildSpeed",
        object(
            List.of("simulator", "sims", "median_kips", "min_kips", "max_kips"),
            "simulator",
            string("The simulator build of earlier sims, as their logs named it; unknown build"),
            "sims",
            integer("Earlier succeeded sims of the same trace, config and window on this build"),
            "median_kips",
            number(kips + ": their median"),
            "min_kips",
            number(),
            "max_kips",
            number(),
            "ratio",
            nullable(number("This run's median over theirs; null when this run has none")),
            "verdict",
            nullable(enumOf("slower", "faster", "within spread"))));
    schemas.put(
        "ConfigSpeed",
        object(
            List.of("gpu_config", "sims", "earlier"),
            "gpu_config",
            string(),
            "kernels",
            nullable(string("The kernel window its sims ran; null for the whole trace")),
            "sims",
            integer("This run's succeeded sims of the config with a speed"),
            "median_kips",
            nullable(number(kips + ": this run's median; null when none has one")),
            "simulators",
            array(string()),
            "earlier",
            array(ref("BuildSpeed"))));
    schemas.put(
        "RunSpeed",
        object(
            List.of("run_id", "trace_id", "configs"),
            "run_id",
            string(),
            "trace_id",
            string(),
            "configs",
            array(ref("ConfigSpeed"))));
  }

  private static void kernels(Map<String, Object> schemas) {
    schemas.put(
        "KernelResult",
        object(
            List.of("position", "name", "cycles", "instructions", "ipc"),
            "position",
            integer(),
            "name",
            string(),
            "readable_name",
            string("Demangled and shortened by c++filt when installed; else the name"),
            "uid",
            integer(),
            "instance",
            integer(),
            "cycles",
            integer(),
            "instructions",
            integer("Thread instructions the simulator executed (gpu_sim_insn)"),
            "ipc",
            number(),
            "simulated_time_us",
            nullable(number()),
            "finished_at",
            nullable(
                string(
                    "When the kernel finished on the wall clock: when the sim's agent read the end"
                        + " of its statistics block (by the app's arrival time for agents that do"
                        + " not say); null for kernels stored before this was kept")),
            "wall_time_s",
            nullable(
                number(
                    "Wall-clock seconds the kernel took: from the previous kernel's end, or for"
                        + " the first from the sim's launch; null when unknown")),
            "stats",
            mapOf(number())));
    schemas.put(
        "SimKernels",
        object(
            List.of("sim_id", "kernels"),
            "sim_id",
            string(),
            "run_id",
            string(),
            "gpu_config",
            string(),
            "replica",
            integer(),
            "state",
            string(),
            "clock_mhz",
            nullable(number()),
            "simulated_kernels",
            nullable(array(integer())),
            "kernels",
            array(ref("KernelResult"))));
  }

  private static void results(Map<String, Object> schemas) {
    schemas.put(
        "Spread",
        object(
            List.of("n", "mean", "stdev", "min", "max", "values"),
            "n",
            integer(),
            "mean",
            number(),
            "stdev",
            number("Sample standard deviation; 0 for one value"),
            "min",
            number(),
            "max",
            number(),
            "values",
            array(number())));
    schemas.put(
        "KernelComparison",
        object(
            List.of("name", "instance", "n", "replicas"),
            "name",
            string("The symbol in the log; \"(all kernels)\" for the total"),
            "readable_name",
            string("Demangled and shortened by c++filt when installed; else the name"),
            "label",
            string("The launch's one name everywhere: name, or name#instance past the first"),
            "instance",
            integer(),
            "n",
            integer(),
            "replicas",
            array(integer()),
            "cycles",
            ref("Spread"),
            "instructions",
            describedRef("Spread", "Thread instructions the simulator executed (gpu_sim_insn)"),
            "ipc",
            ref("Spread"),
            "simulated_time_us",
            ref("Spread"),
            "speedup",
            nullableRef("KernelSpeedup"),
            "versus_baseline",
            nullable(
                described(
                    mapOf(nullableRef("MeasureVersusBaseline")),
                    "Each requested measure beyond the defaults against the same row of the"
                        + " baseline config, by id; null without such measures or when the"
                        + " baseline lacks the row"))));
    // A requested measure's spread sits beside the defaults under its own id.
    @SuppressWarnings("unchecked")
    Map<String, Object> comparison = (Map<String, Object>) schemas.get("KernelComparison");
    comparison.put(
        "additionalProperties", describedRef("Spread", "A requested measure's spread, by its id"));
    schemas.put(
        "MeasureVersusBaseline",
        object(
            List.of("difference", "direction"),
            "ratio",
            nullable(number("This row's mean over the baseline's; null when the baseline's is 0")),
            "difference",
            number("This row's mean minus the baseline's"),
            "relative",
            nullable(number("The difference over the baseline's mean")),
            "direction",
            enumOf("higher", "lower", "same_within_spread"),
            "verdict",
            nullable(
                described(
                    enumOf("better", "worse", "same_within_spread"),
                    "Null for a measure that is neither better higher nor lower"))));
    schemas.put(
        "Measure",
        object(
            List.of("id", "label", "unit", "direction", "counts", "source", "aggregation"),
            "id",
            string("The name in requests, JSON keys and CSV columns"),
            "label",
            string(),
            "unit",
            string(),
            "direction",
            enumOf("lower_is_better", "higher_is_better", "neither"),
            "counts",
            string("What the figure counts, in words"),
            "source",
            map(
                "type",
                "object",
                "description",
                "Where a kernel's value comes from: kind kernel_cycles, kernel_instructions,"
                    + " statistic (key), change (key), ratio (numerator, denominator) or"
                    + " per_core_clock (cycles)"),
            "aggregation",
            enumOf("sum", "ratio_of_totals", "mean", "max", "last"),
            "default",
            bool()));
    schemas.put(
        "MeasureCatalog",
        object(
            List.of("defaults", "how_to_ask", "forms", "statistics"),
            "defaults",
            array(ref("Measure")),
            "how_to_ask",
            string(),
            "forms",
            array(string()),
            "statistics",
            array(string("With ?run=ID, the statistics its first finished kernel printed"))));
    schemas.put(
        "ConfigResult",
        object(
            List.of("gpu_config", "replicas", "succeeded", "kernels", "total"),
            "gpu_config",
            string(),
            "base",
            string("The catalog config the entry is based on: gpu_config unless a variant"),
            "params",
            described(
                mapOf(string()),
                "The options the variant sets over its base: what differs from it; empty for a"
                    + " config as it is"),
            "arch",
            nullable(string()),
            "clock_mhz",
            nullable(number()),
            "replicas",
            integer(),
            "succeeded",
            integer(),
            "kernels",
            array(ref("KernelComparison")),
            "total",
            ref("KernelComparison"),
            "notes",
            array(string()),
            "sampling",
            described(
                nullableRef("SampledEstimate"),
                "How a sampled entry's total was estimated; null when not sampled")));
    schemas.put(
        "EstimateInterval",
        object(
            List.of(),
            "estimate",
            nullable(number("The mean over replicas of each replica's weighted estimate")),
            "low",
            nullable(number()),
            "high",
            nullable(number()),
            "interval",
            nullable(number("Relative half-width: sqrt(predicted^2 + replica_spread^2)")),
            "replica_spread",
            nullable(number("Half the replicas' range over the mean"))));
    schemas.put(
        "SamplingValidation",
        object(
            List.of("run_id", "state"),
            "run_id",
            string(),
            "state",
            string(),
            "full_cycles",
            nullable(number()),
            "real_error",
            nullable(number("estimate / full - 1 of total cycles")),
            "predicted_error",
            number("The estimate's interval, relative")));
    schemas.put(
        "SampledEstimate",
        object(
            List.of("summary", "simulated_kernels", "total_kernels", "measures"),
            "summary",
            string("estimated from N of M kernels (x% of warp instructions), +-y%"),
            "simulated_kernels",
            integer(),
            "total_kernels",
            integer(),
            "simulated_warp_instructions",
            integer(),
            "total_warp_instructions",
            integer(),
            "simulated_share",
            number(),
            "predicted_error",
            number(),
            "measures",
            mapOf(ref("EstimateInterval")),
            "simulated_seconds",
            nullable(number("Mean wall time of the sims")),
            "full_trace_seconds_estimate",
            nullable(number("The same for the whole trace, at the same rate")),
            "validation",
            nullableRef("SamplingValidation")));
    schemas.put(
        "Results",
        object(
            List.of("run_id", "configs"),
            "run_id",
            string(),
            "trace_id",
            string(),
            "state",
            string(),
            "partial",
            bool(),
            "progress",
            ref("ResultsProgress"),
            "baseline",
            nullable(string("The config the speedups compare with: ?baseline=, else the first")),
            "spread_rule",
            string("How a speedup's verdict is decided"),
            "measures",
            array(ref("Measure")),
            "configs",
            array(ref("ConfigResult"))));
  }

  static Map<String, Object> describedRef(String schema, String description) {
    return map("allOf", List.of(ref(schema)), "description", description);
  }

  static Map<String, Object> nullableRef(String schema) {
    return map("allOf", List.of(ref(schema)), "nullable", true);
  }
}
