package dev.cascade.core.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.Sim;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import dev.cascade.core.SkippedFolder;
import dev.cascade.core.TimeLimit;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP API's JSON for traces, GPU configs, runs, sims, events and errors ({@code docs/api.md}),
 * as {@code write...}/{@code read...} pairs: a {@code write} gives the object as a map in the API's
 * field order, for any JSON writer; a {@code read} takes what a {@code write} gave (parsed) and
 * gives the record back, equal. Kernels and results are in {@link ResultsJson}.
 *
 * <p>Readers are strict about what the API always writes (a missing {@code id} is an {@link
 * IllegalArgumentException} naming the field) and lenient about the rest: a field a newer server
 * adds is ignored, an optional field it leaves out reads as null.
 */
public final class ApiJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ApiJson() {}

  // ------------------------------------------------------------------ traces and GPU configs

  /** {@code GET /api/traces/{id}}; without {@code kernels} when {@code withKernels} is false. */
  public static Map<String, Object> writeTrace(Trace trace, boolean withKernels) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", trace.id());
    fields.put("state", trace.state().wireName());
    fields.put("reason", trace.reason());
    fields.put("trace_gpu_arch", trace.traceGpuArch());
    fields.put("suggested_sim_config", trace.suggestedSimConfig());
    fields.put("model_name", trace.modelName());
    fields.put("traced_layers", trace.tracedLayers());
    fields.put("kernel_count", trace.kernelCount());
    if (withKernels) {
      fields.put("kernels", trace.kernels().stream().map(ApiJson::writeTraceKernel).toList());
    }
    fields.put("size_bytes", trace.sizeBytes());
    fields.put("sample", trace.sample());
    fields.put("runnable", trace.runnable());
    fields.put("created_at", text(trace.createdAt()));
    fields.put("updated_at", text(trace.updatedAt()));
    return fields;
  }

  /** A trace; its kernels are empty when the JSON has none (a list leaves them out). */
  public static Trace readTrace(JsonNode node) {
    Fields trace = Fields.of(node, "a trace");
    return new Trace(
        trace.text("id"),
        TraceState.fromWireName(trace.text("state")),
        trace.textOrNull("reason"),
        trace.text("trace_gpu_arch"),
        trace.textOrNull("suggested_sim_config"),
        trace.textOrNull("model_name"),
        trace.texts("traced_layers"),
        trace.integer("kernel_count"),
        trace.list("kernels", ApiJson::readTraceKernel),
        trace.whole("size_bytes"),
        trace.bool("sample"),
        trace.time("created_at"),
        trace.time("updated_at"));
  }

  /** {@code GET /api/traces}: {@code {"traces": [...]}}, without kernels. */
  public static Map<String, Object> writeTraceList(List<Trace> traces) {
    return Map.of("traces", traces.stream().map(trace -> writeTrace(trace, false)).toList());
  }

  /** The trace list with the folders that are not traces, as {@code skipped_folders}. */
  public static Map<String, Object> writeTraceList(
      List<Trace> traces, List<SkippedFolder> skipped) {
    Map<String, Object> fields = new LinkedHashMap<>(writeTraceList(traces));
    fields.put(
        "skipped_folders",
        skipped.stream()
            .map(folder -> Map.of("name", folder.name(), "reason", folder.reason()))
            .toList());
    return fields;
  }

  public static List<Trace> readTraceList(JsonNode node) {
    return Fields.of(node, "the trace list").list("traces", ApiJson::readTrace);
  }

  /** The trace list's {@code skipped_folders}; empty from a server that does not send them. */
  public static List<SkippedFolder> readSkippedFolders(JsonNode node) {
    return Fields.of(node, "the trace list")
        .list(
            "skipped_folders",
            folder -> {
              Fields fields = Fields.of(folder, "a skipped folder");
              return new SkippedFolder(fields.text("name"), fields.text("reason"));
            });
  }

  public static Map<String, Object> writeTraceKernel(TraceKernel kernel) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("index", kernel.index());
    fields.put("file", kernel.file());
    fields.put("name", kernel.name());
    fields.put("grid", kernel.grid());
    fields.put("block", kernel.block());
    fields.put("instructions", kernel.instructions());
    return fields;
  }

  public static TraceKernel readTraceKernel(JsonNode node) {
    Fields kernel = Fields.of(node, "a trace kernel");
    return new TraceKernel(
        kernel.integer("index"),
        kernel.text("file"),
        kernel.textOrNull("name"),
        kernel.textOrNull("grid"),
        kernel.textOrNull("block"),
        kernel.wholeOrNull("instructions"));
  }

  /**
   * One config of {@code GET /api/gpu-configs}: an unknown clock or SM count is null, and the
   * config's folder (on the server's machine) is left out.
   */
  public static Map<String, Object> writeGpuConfig(GpuConfig config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", config.name());
    fields.put("arch", config.arch());
    fields.put("clock_mhz", config.usable() || config.clockMhz() > 0 ? config.clockMhz() : null);
    fields.put("sms", config.sms() > 0 ? config.sms() : null);
    fields.put("has_trace_config", config.hasTraceConfig());
    fields.put("usable", config.usable());
    fields.put("reason", config.reason());
    fields.put("warnings", config.warnings());
    return fields;
  }

  /**
   * A config; its {@code directory} and {@code traceConfig} are null, for the files are on the
   * server's machine.
   */
  public static GpuConfig readGpuConfig(JsonNode node) {
    Fields config = Fields.of(node, "a GPU config");
    Double clock = config.numberOrNull("clock_mhz");
    Long sms = config.wholeOrNull("sms");
    return new GpuConfig(
        config.text("name"),
        config.textOrNull("arch"),
        clock == null ? 0 : clock,
        sms == null ? 0 : Math.toIntExact(sms),
        config.bool("has_trace_config"),
        config.bool("usable"),
        config.textOrNull("reason"),
        config.texts("warnings"),
        null,
        null);
  }

  /** {@code GET /api/gpu-configs}: {@code {"gpu_configs": [...]}}. */
  public static Map<String, Object> writeGpuConfigList(List<GpuConfig> configs) {
    return Map.of("gpu_configs", configs.stream().map(ApiJson::writeGpuConfig).toList());
  }

  public static List<GpuConfig> readGpuConfigList(JsonNode node) {
    return Fields.of(node, "the GPU config list").list("gpu_configs", ApiJson::readGpuConfig);
  }

  // ------------------------------------------------------------------ runs

  /** {@code POST /api/runs}: {@code {"trace_id", "entries": [{"gpu_config", "count"}]}}. */
  public static Map<String, Object> writeRunRequest(String traceId, List<RunEntry> entries) {
    return writeRunRequest(traceId, entries, RunOptions.defaults());
  }

  /** {@code POST /api/runs} with the run's {@code owner} and {@code priority}. */
  public static Map<String, Object> writeRunRequest(
      String traceId, List<RunEntry> entries, RunOptions options) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("trace_id", traceId);
    fields.put("entries", entries.stream().map(ApiJson::writeRunEntry).toList());
    fields.put("owner", options.owner());
    fields.put("priority", options.priority());
    if (options.reuse()) {
      fields.put("reuse", true);
    }
    return fields;
  }

  /**
   * An entry; {@code time_limit} as {@link TimeLimit#format} writes it, or null; {@code sampling}
   * and {@code context} only when it has them. A variant also has {@code params}, {@code name}
   * (what its sims and results are called) and, when given, {@code label}; an entry of a request
   * may have {@code sweep}.
   */
  public static Map<String, Object> writeRunEntry(RunEntry entry) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", entry.gpuConfig());
    fields.put("count", entry.count());
    fields.put("kernels", entry.kernels());
    fields.put(
        "time_limit", entry.timeLimit() == null ? null : TimeLimit.format(entry.timeLimit()));
    if (entry.sampling() != null) {
      fields.put("sampling", SamplingJson.writeSampling(entry.sampling()));
    }
    if (entry.context() != null) {
      fields.put("context", entry.context());
    }
    if (!entry.params().isEmpty()) {
      fields.put("params", entry.params());
    }
    if (!entry.sweep().isEmpty()) {
      fields.put("sweep", entry.sweep());
    }
    if (entry.label() != null) {
      fields.put("label", entry.label());
    }
    if (entry.isVariant() || entry.label() != null) {
      fields.put("name", entry.name());
    }
    return fields;
  }

  public static RunEntry readRunEntry(JsonNode node) {
    Fields entry = Fields.of(node, "a run entry");
    String limit = entry.textOrNull("time_limit");
    Map<String, String> params = new LinkedHashMap<>();
    node.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
    Map<String, List<String>> sweep = new LinkedHashMap<>();
    node.path("sweep")
        .properties()
        .forEach(
            p -> {
              List<String> values = new java.util.ArrayList<>();
              p.getValue().forEach(value -> values.add(value.asText()));
              sweep.put(p.getKey(), values);
            });
    return new RunEntry(
        entry.text("gpu_config"),
        entry.integer("count"),
        entry.textOrNull("kernels"),
        limit == null ? null : TimeLimit.parse(limit),
        entry.textOrNull("context"),
        SamplingJson.readSampling(node.get("sampling")),
        params,
        sweep,
        entry.textOrNull("label"));
  }

  /**
   * {@code GET /api/runs/{id}}: the run, its derived state and every sim, each with its heartbeat
   * age at {@code now} (the server's clock).
   */
  public static Map<String, Object> writeRun(Run run, Instant now) {
    return ScheduleJson.writeRun(run, now, Map.of());
  }

  /** A run with its sims; their heartbeat ages are not kept (they are the server's reading). */
  public static Run readRun(JsonNode node) {
    Fields run = Fields.of(node, "a run");
    if (!node.path("sims").isArray()) {
      throw new IllegalArgumentException(
          "a run must have \"sims\" as an array; a summary of GET /api/runs has none");
    }
    String owner = run.textOrNull("owner");
    return new Run(
        run.text("id"),
        run.text("trace_id"),
        run.list("entries", ApiJson::readRunEntry),
        run.time("created_at"),
        run.list("sims", ApiJson::readSim),
        owner == null ? RunOptions.DEFAULT_OWNER : owner,
        run.integer("priority", 0));
  }

  static Map<String, Object> runFields(Run run) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", run.id());
    fields.put("trace_id", run.traceId());
    fields.put("state", run.state().wireName());
    fields.put("created_at", text(run.createdAt()));
    fields.put("owner", run.owner());
    fields.put("priority", run.priority());
    fields.put("entries", run.entries().stream().map(ApiJson::writeRunEntry).toList());
    fields.put("sim_count", run.latestAttempts().size());
    return fields;
  }

  // ------------------------------------------------------------------ sims

  /** A sim as {@code sim} events carry it: every field of a run's sim but the heartbeat age. */
  public static Map<String, Object> writeSim(Sim sim) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", sim.id());
    fields.put("run_id", sim.runId());
    fields.put("gpu_config", sim.gpuConfig());
    fields.put("replica", sim.replica());
    fields.put("state", sim.state().wireName());
    fields.put("error", sim.error());
    fields.put("exit_code", sim.exitCode());
    fields.put("launcher", sim.launcherName());
    fields.put("launcher_ref", sim.launcherRef());
    fields.put("created_at", text(sim.createdAt()));
    fields.put("launched_at", text(sim.launchedAt()));
    fields.put("last_heartbeat_at", text(sim.lastHeartbeatAt()));
    fields.put("finished_at", text(sim.finishedAt()));
    SimProgress progress = sim.progress();
    fields.put("kernels_done", progress.kernelsDone());
    fields.put("kernels_total", progress.kernelsTotal());
    fields.put("current_kernel", progress.currentKernel());
    fields.put("latest_metrics", progress.latestMetrics());
    fields.put("log_outcome", progress.logOutcome());
    fields.put("peak_memory_bytes", sim.peakMemoryBytes());
    SimFields.write(sim, fields);
    return fields;
  }

  /**
   * A sim as a run shows it: {@link #writeSim(Sim)} plus {@code heartbeat_age_s}, the seconds from
   * its last heartbeat to {@code now}; null before the first.
   */
  public static Map<String, Object> writeSim(Sim sim, Instant now) {
    Map<String, Object> fields = writeSim(sim);
    Instant last = sim.lastHeartbeatAt();
    fields.put(
        "heartbeat_age_s",
        last == null ? null : Math.max(0, Duration.between(last, now).toMillis()) / 1000.0);
    return fields;
  }

  /** A sim, from a run or a {@code sim} event; {@code heartbeat_age_s} is not kept. */
  public static Sim readSim(JsonNode node) {
    Fields sim = Fields.of(node, "a sim");
    Integer exitCode = sim.wholeOrNull("exit_code") == null ? null : sim.integer("exit_code");
    return new Sim(
        sim.text("id"),
        sim.text("run_id"),
        sim.text("gpu_config"),
        sim.integer("replica"),
        SimState.fromWireName(sim.text("state")),
        sim.textOrNull("launcher_ref"),
        sim.textOrNull("error"),
        exitCode,
        sim.time("created_at"),
        sim.timeOrNull("launched_at"),
        sim.timeOrNull("last_heartbeat_at"),
        sim.timeOrNull("finished_at"),
        sim.textOrNull("launcher"),
        new SimProgress(
            sim.integer("kernels_done", 0),
            sim.integer("kernels_total", 0),
            sim.textOrNull("current_kernel"),
            sim.numberMap("latest_metrics"),
            sim.textOrNull("log_outcome")),
        sim.integer("attempt", 1),
        sim.textOrNull("kernels"),
        SimFields.failureClass(sim.textOrNull("failure_class")),
        SimFields.provenance(node.path("provenance"), sim.textOrNull("reused_from")),
        sim.wholeOrNull("peak_memory_bytes"));
  }

  // ------------------------------------------------------------------ events

  /**
   * The {@code data} line of one server-sent event: {@code {"event_id", "run_id", "sim_id", "kind",
   * "at", "data": {...}}}, with the event's stored data as it is (it is JSON already).
   */
  public static String writeEvent(SimEvent event) {
    StringBuilder json = new StringBuilder(event.data().length() + 160);
    json.append("{\"event_id\":").append(event.id());
    json.append(",\"run_id\":");
    quote(json, event.runId());
    json.append(",\"sim_id\":");
    quote(json, event.simId());
    json.append(",\"kind\":\"").append(event.kind().wireName()).append('"');
    json.append(",\"at\":\"").append(event.at()).append('"');
    json.append(",\"data\":").append(event.data().strip()).append('}');
    return json.toString();
  }

  /** An event from its {@code data} line; its {@code data} is kept as compact JSON text. */
  public static SimEvent readEvent(JsonNode node) {
    Fields event = Fields.of(node, "an event");
    return new SimEvent(
        event.whole("event_id"),
        event.text("run_id"),
        event.textOrNull("sim_id"),
        SimEvent.Kind.fromWireName(event.text("kind")),
        event.time("at"),
        event.object("data").toString());
  }

  /**
   * The data of a {@code log} event: {@code {"lines": [...]}}, the newest lines, oldest first; with
   * {@code "skipped": n} when older lines of the same batch were left out (the log has them).
   */
  public static Map<String, Object> writeLogEvent(List<String> lines, long skipped) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("lines", lines);
    if (skipped > 0) {
      fields.put("skipped", skipped);
    }
    return fields;
  }

  /** The lines of a {@code log} event's data. */
  public static List<String> readLogEventLines(JsonNode node) {
    return Fields.of(node, "a log event").texts("lines");
  }

  // ------------------------------------------------------------------ errors

  /** Every error's body: {@code {"error": {"code", "message", "field"}}}. */
  public static Map<String, Object> writeError(String code, String message, String field) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message == null || message.isBlank() ? code.replace('_', ' ') : message);
    error.put("field", field);
    return Map.of("error", error);
  }

  public static Map<String, Object> writeError(CascadeException e) {
    return writeError(e.code().wireName(), e.getMessage(), e.field());
  }

  /**
   * The error an answer of {@code httpStatus} with {@code body} stands for, as the server threw it:
   * its code (by wire name; by status for codes the client has no constant of, such as {@code
   * method_not_allowed}), message and field. Empty when the body is not the API's error body.
   */
  public static Optional<CascadeException> readError(int httpStatus, JsonNode body) {
    JsonNode error = body == null ? null : body.get("error");
    if (error == null || !error.isObject() || !error.path("message").isTextual()) {
      return Optional.empty();
    }
    Fields fields = Fields.of(error, "an error");
    String wireName = error.path("code").asText("");
    ErrorCode code = null;
    for (ErrorCode candidate : ErrorCode.values()) {
      if (candidate.wireName().equals(wireName)) {
        code = candidate;
      }
    }
    return Optional.of(
        new CascadeException(
            code != null ? code : errorCode(httpStatus),
            fields.text("message"),
            fields.textOrNull("field")));
  }

  /** The code an HTTP status stands for: {@code internal} for other 5xx, else bad request. */
  public static ErrorCode errorCode(int httpStatus) {
    for (ErrorCode code : ErrorCode.values()) {
      if (code.httpStatus() == httpStatus) {
        return code;
      }
    }
    return httpStatus >= 500 ? ErrorCode.INTERNAL : ErrorCode.BAD_REQUEST;
  }

  // ------------------------------------------------------------------ text

  /** {@code value} (a map a {@code write} gave, a list of them) as compact JSON text. */
  public static String toJson(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot be written as JSON: " + e.getOriginalMessage(), e);
    }
  }

  static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }

  private static void quote(StringBuilder out, String text) {
    if (text == null) {
      out.append("null");
      return;
    }
    out.append('"');
    JsonStringEncoder.getInstance().quoteAsString(text, out);
    out.append('"');
  }
}
