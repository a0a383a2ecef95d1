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

import dev.cascade.core.FailureClass;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schemas of what a user creates and reads: errors, runs and their sims, traces, GPU configs.
 */
final class ResourceSchemas {

  private ResourceSchemas() {}

  /** Adds the schemas to {@code schemas}, in the document's order. */
  static void addTo(Map<String, Object> schemas) {
    schemas.put(
        "Error",
        object(
            List.of("error"),
            "error",
            object(
                List.of("code", "message"),
                "code",
                string("not_found, invalid, conflict, unauthorized, ..."),
                "message",
                string("What failed and what to do"),
                "field",
                nullable(string("The request field concerned, such as entries[1].count")))));
    schemas.put("Health", object(List.of("status"), "status", string("ok")));
    schemas.put(
        "Uploads",
        object(
            List.of("s3_endpoint", "bucket", "prefix"),
            "s3_endpoint",
            string("The S3 endpoint's URL, such as http://127.0.0.1:9000"),
            "bucket",
            string("The bucket Cascade watches"),
            "prefix",
            string("Traces go under <prefix><trace id>/, such as accelsim-traces/")));
    schemas.put(
        "Simulator",
        object(
            List.of("name", "runs", "cycles_per_second", "demo_sim_seconds", "note"),
            "name",
            string("The simulator whose output Cascade reads, such as accel-sim"),
            "runs",
            string("What each sim runs: emulator, accel-sim, or command (CASCADE_SIM_CMD)"),
            "cycles_per_second",
            nullable(number("The emulator's simulated cycles per second (0: as fast as it can)")),
            "demo_sim_seconds",
            nullable(number("About how long a sim of the demo trace takes at that pace")),
            "note",
            string("The same in a sentence, for the new-run form")));
    runs(schemas);
    traces(schemas);
    gpuConfigs(schemas);
  }

  private static void runs(Map<String, Object> schemas) {
    schemas.put(
        "RunEntry",
        object(
            List.of("gpu_config", "count"),
            "gpu_config",
            string("A GPU config name"),
            "count",
            map("type", "integer", "minimum", 1, "maximum", 64),
            "kernels",
            nullable(
                string(
                    "The kernels to simulate by position in kernelslist.g from 1, such as 1-5,9;"
                        + " absent for all")),
            "time_limit",
            nullable(
                string(
                    "Wall time each sim may take once launched: 30m, 90s, 2h, 1h30m (a request"
                        + " may also give whole seconds); a sim over it fails, timed out")),
            "context",
            string(
                "For a trace with several CUDA contexts, the one to simulate: kernelslist (the"
                    + " first, its kernelslist.g; the default) or another's list name, such as"
                    + " kernelslist_ctx_0x2 (its kernelslist_ctx_0x2.g); the kernel window counts"
                    + " positions in its list. Absent for the first. An unknown one is a 422"
                    + " naming the contexts the trace has"),
            "params",
            described(
                mapOf(string()),
                "Simulator options set over the config's own, by name with the dash:"
                    + " {\"-gpgpu_n_clusters\": \"54\"} makes a variant; a number is taken as its"
                    + " text. An option the config does not set, or a value of the wrong shape (a"
                    + " cache spec), is refused with 422"),
            "sweep",
            described(
                mapOf(array(string())),
                "Options to sweep, each with its values: the entry stands for every combination"
                    + " (at most 64), each a variant with the entry's count. A created run lists"
                    + " the variants as its entries"),
            "label",
            nullable(
                string(
                    "The variant's name instead of the config and its params (a sweep adds the"
                        + " swept values)")),
            "name",
            string(
                "What the entry's sims and results are called: the label, else the config and"
                    + " its params as -name=value (written for variants and labelled entries)"),
            "sampling",
            described(
                ReportSchemas.nullableRef("Sampling"),
                "Simulate only the trace's sampling plan's representatives and estimate the whole"
                    + " trace (true for the defaults); not with kernels")));
    schemas.put(
        "Sampling",
        object(
            List.of(),
            "target_error",
            map("type", "number", "minimum", 0.001, "maximum", 0.5, "default", 0.05),
            "budget",
            nullable(integer("At most this many kernels to simulate")),
            "method",
            enumOf("instructions", "features"),
            "validate",
            bool(),
            "validation_run",
            nullable(string("The run simulating the whole trace once, set by Cascade"))));
    schemas.put(
        "RunRequest",
        object(
            List.of("trace_id", "entries"),
            "trace_id",
            string("A ready trace"),
            "entries",
            array(ref("RunEntry")),
            "owner",
            nullable(string("Whose run: waiting sims start round-robin across owners; local")),
            "priority",
            map("type", "integer", "minimum", -1000, "maximum", 1000, "default", 0),
            "reuse",
            bool()));
    schemas.put(
        "Provenance",
        object(
            List.of(),
            "trace_hash",
            nullable(
                string(
                    "sha256:... of kernelslist.g and the kernel files it lists (for another CUDA"
                        + " context than the first, of its name and its list and files)")),
            "config_hash",
            nullable(string("sha256:... of gpgpusim.config and trace.config")),
            "simulator",
            nullable(string("The emulator's version, or sha256:... of the simulator binary")),
            "accelsim_build",
            nullable(string("From the log's Accel-Sim [build ...]")),
            "gpgpusim_build",
            nullable(string("From the log's GPGPU-Sim ... [build ...]")),
            "accelsim_version",
            nullable(
                string(
                    "The version the log's Accel-Sim [build ...] line names before its build;"
                        + " null when it names none (Accel-Sim up to v2.0.0 prints only its"
                        + " build)")),
            "gpgpusim_version",
            nullable(
                string(
                    "The version the log's GPGPU-Sim line names: 4.2.0 of *** GPGPU-Sim"
                        + " Simulator Version 4.2.0 [build ...] ***"))));
    schemas.put(
        "Sim",
        object(
            List.of("id", "run_id", "gpu_config", "replica", "state"),
            "id",
            string("s_..."),
            "run_id",
            string("r_..."),
            "gpu_config",
            string(),
            "replica",
            integer(),
            "state",
            enumOf("pending", "launching", "running", "lost", "succeeded", "failed", "cancelled"),
            "error",
            nullable(string()),
            "exit_code",
            nullable(integer()),
            "launcher",
            nullable(string()),
            "launcher_ref",
            nullable(string()),
            "created_at",
            time(),
            "launched_at",
            nullable(time()),
            "last_heartbeat_at",
            nullable(time()),
            "finished_at",
            nullable(time()),
            "kernels_done",
            integer(),
            "kernels_total",
            integer(),
            "current_kernel",
            nullable(string()),
            "latest_metrics",
            mapOf(number()),
            "log_outcome",
            nullable(string("complete, not_final, failed, incomplete")),
            "peak_memory_bytes",
            nullable(
                integer(
                    "The most resident memory (RSS) the sim's process tree held, in bytes:"
                        + " sampled while a local sim runs, Slurm's accounted MaxRSS after a"
                        + " Slurm task ends; null where not measured (before it runs, Sail, Slurm"
                        + " without accounting)")),
            "attempt",
            integer(),
            "kernels",
            nullable(string("The kernel window simulated, such as 2-3; null for all")),
            "simulated_kernels",
            nullable(array(integer())),
            "failure_class",
            nullable(
                enumOf(
                    Arrays.stream(FailureClass.values())
                        .map(FailureClass::wireName)
                        .toArray(String[]::new))),
            "reused_from",
            nullable(string("The earlier sim whose results this sim took")),
            "provenance",
            ref("Provenance"),
            "heartbeat_age_s",
            nullable(number("Seconds since the last heartbeat")),
            "queue_position",
            nullable(integer()),
            "eta",
            nullable(time()),
            "eta_s",
            nullable(number("Seconds from now to the estimated finish")),
            "eta_basis",
            nullable(string("What the estimate comes from")),
            "queued_reason",
            nullable(
                string(
                    "Why a launched sim still waits in its launcher's queue (Slurm's state and"
                        + " reason); null when it does not. In run responses only"))));
    // A run and its summary share their fields; the run lists its sims, the summary counts them.
    Map<String, Object> runFields =
        map(
            "id",
            string("r_..."),
            "trace_id",
            string(),
            "state",
            enumOf("active", "succeeded", "partial", "cancelled", "failed"),
            "created_at",
            time(),
            "owner",
            string("Whose run"),
            "priority",
            integer(),
            "entries",
            array(ref("RunEntry")),
            "sim_count",
            integer());
    Map<String, Object> run = new LinkedHashMap<>(runFields);
    run.put("sims", array(ref("Sim")));
    run.put("actions", array(ref("RunAction")));
    run.put("storage", ref("RunStorage"));
    schemas.put("Run", object(List.of("id", "trace_id", "state", "entries", "sims"), run));
    schemas.put(
        "RunStorage",
        object(
            List.of(
                "log_bytes",
                "log_stored_bytes",
                "stats_stored_bytes",
                "stored_bytes",
                "sims_with_logs_dropped"),
            "log_bytes",
            integer("Bytes of the sims' logs as they sent them (what a download returns)"),
            "log_stored_bytes",
            integer("Bytes of the same logs as stored (compressed)"),
            "stats_stored_bytes",
            integer("Bytes of the kernels' statistics as stored (compressed)"),
            "stored_bytes",
            integer("log_stored_bytes + stats_stored_bytes"),
            "sims_with_logs_dropped",
            integer("Sims whose log retention or cascade gc dropped (their results stay)")));
    schemas.put(
        "GcRequest",
        object(
            List.of("older_than"),
            "older_than",
            string(
                "Age of the runs whose logs to drop: 30d, 12h, 1d12h, 90m, or 0 for every"
                    + " finished run")));
    schemas.put(
        "GcResult",
        object(
            List.of("before", "runs", "sims", "log_bytes", "log_stored_bytes", "folders"),
            "before",
            time(),
            "runs",
            integer("Runs whose logs were dropped now"),
            "sims",
            integer("Sims whose logs were dropped now"),
            "log_bytes",
            integer("Bytes of the dropped logs as the sims sent them"),
            "log_stored_bytes",
            integer("Bytes of the dropped logs as they were stored"),
            "folders",
            integer("Kernel-window folders, sim work folders and output files removed")));
    Map<String, Object> summary = new LinkedHashMap<>(runFields);
    summary.put("sims_by_state", mapOf(map("type", "integer")));
    summary.put("kernels_done", integer("Kernels finished, over the latest attempts"));
    summary.put("kernels_total", integer("Kernels to simulate, over the latest attempts"));
    summary.put("configs", array(ref("RunConfigProgress")));
    schemas.put("RunSummary", object(List.of("id", "trace_id", "state", "entries"), summary));
    schemas.put(
        "RunConfigProgress",
        object(
            List.of("gpu_config", "count", "sims_by_state", "kernels_done", "kernels_total"),
            "gpu_config",
            string(),
            "count",
            integer(),
            "sims_by_state",
            mapOf(map("type", "integer")),
            "kernels_done",
            integer(),
            "kernels_total",
            integer()));
    schemas.put(
        "RunList",
        object(
            List.of("runs", "next_cursor"),
            "runs",
            array(ref("RunSummary")),
            "next_cursor",
            nullable(string("Pass as ?cursor= for the next page; null on the last"))));
  }

  private static void traces(Map<String, Object> schemas) {
    schemas.put(
        "TraceKernel",
        object(
            List.of("index", "file"),
            "index",
            integer(),
            "file",
            string(),
            "name",
            nullable(string()),
            "grid",
            nullable(string("x,y,z")),
            "block",
            nullable(string("x,y,z")),
            "instructions",
            nullable(integer("Warp-level instructions counted in the trace file"))));
    schemas.put(
        "SamplingStratum",
        object(
            List.of("members", "representative", "weight"),
            "name",
            nullable(string()),
            "grid",
            nullable(string("x,y,z")),
            "block",
            nullable(string("x,y,z")),
            "size",
            integer("Launches it stands for"),
            "members",
            string("Their positions in kernelslist.g, as a kernel window: 1-5,9"),
            "representative",
            integer("The position of the launch simulated for them"),
            "representative_instructions",
            nullable(integer("Its warp instructions")),
            "warp_instructions",
            integer("The members' warp instructions together"),
            "weight",
            number("What the representative's numbers are multiplied by"),
            "dispersion",
            number("Coefficient of variation of the members' features")));
    schemas.put(
        "SamplingPlan",
        object(
            List.of("trace_id", "strata", "predicted_error"),
            "trace_id",
            string(),
            "request",
            ref("Sampling"),
            "summary",
            string("estimated from N of M kernels (x% of warp instructions)"),
            "kernels",
            integer(),
            "simulated_kernels",
            integer(),
            "warp_instructions",
            integer(),
            "simulated_warp_instructions",
            integer(),
            "simulated_share",
            number("Of warp instructions, 0 to 1"),
            "predicted_error",
            number("Relative, about 95%"),
            "window",
            string("The representatives as a kernel window"),
            "strata",
            array(ref("SamplingStratum")),
            "notes",
            array(string())));
    schemas.put(
        "Trace",
        object(
            List.of("id", "state"),
            "id",
            string(),
            "state",
            enumOf("uploading", "processing", "ready", "failed"),
            "reason",
            nullable(string()),
            "trace_gpu_arch",
            string("sm_90"),
            "suggested_sim_config",
            nullable(string()),
            "model_name",
            nullable(string()),
            "traced_layers",
            array(string()),
            "kernel_count",
            integer(),
            "kernels",
            array(ref("TraceKernel")),
            "size_bytes",
            integer(),
            "sample",
            bool(),
            "runnable",
            bool(),
            "created_at",
            time(),
            "updated_at",
            time()));
    schemas.put(
        "SkippedFolder", object(List.of("name", "reason"), "name", string(), "reason", string()));
    schemas.put(
        "TraceList",
        object(
            List.of("traces"),
            "traces",
            array(ref("Trace")),
            "skipped_folders",
            array(ref("SkippedFolder"))));
  }

  private static void gpuConfigs(Map<String, Object> schemas) {
    schemas.put(
        "GpuConfig",
        object(
            List.of("name", "usable"),
            "name",
            string(),
            "arch",
            nullable(string("sm_90")),
            "clock_mhz",
            nullable(number()),
            "sms",
            nullable(integer()),
            "has_trace_config",
            bool(),
            "usable",
            bool(),
            "reason",
            nullable(string()),
            "warnings",
            array(string())));
    schemas.put(
        "GpuConfigList", object(List.of("gpu_configs"), "gpu_configs", array(ref("GpuConfig"))));
  }
}
