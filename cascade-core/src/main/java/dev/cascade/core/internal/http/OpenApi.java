package dev.cascade.core.internal.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API's own OpenAPI 3 description, written by hand (in code, so it cannot drift from the JSON
 * it describes without a test noticing: every route Javalin has is in it, and nothing else).
 */
final class OpenApi {

  private static final String USER = "userToken";
  private static final String SIM = "simToken";

  private final Map<String, Object> paths = new LinkedHashMap<>();
  private final Map<String, Object> schemas = new LinkedHashMap<>();

  private OpenApi() {}

  /** The document, as a JSON-ready map. */
  static Map<String, Object> document() {
    OpenApi api = new OpenApi();
    api.schemas();
    api.paths();
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.0.3");
    doc.put(
        "info",
        map(
            "title", "Cascade API",
            "version", "1",
            "description",
                "Run captured Accel-Sim GPU traces on other GPU configs. User endpoints take"
                    + " \"Authorization: Bearer $CASCADE_TOKEN\" when the server has a token; sim"
                    + " endpoints take the sim's own token. JSON is snake_case. Every error is"
                    + " {\"error\": {\"code\", \"message\", \"field\"}}."));
    doc.put("paths", api.paths);
    doc.put(
        "components",
        map(
            "securitySchemes",
            map(
                USER,
                map(
                    "type", "http",
                    "scheme", "bearer",
                    "description", "CASCADE_TOKEN; not needed when the server has none"),
                SIM,
                map(
                    "type", "http",
                    "scheme", "bearer",
                    "description", "CASCADE_SIM_TOKEN, valid for its own sim only")),
            "schemas",
            api.schemas));
    return doc;
  }

  private void paths() {
    op(
        "get",
        "/healthz",
        "health",
        "Health check; needs no token",
        null,
        List.of(),
        null,
        ok(json(ref("Health"))));
    op(
        "get",
        "/metrics",
        "metrics",
        "Prometheus metrics in the text format; needs no token",
        null,
        List.of(),
        null,
        ok(content("text/plain", map("type", "string"))));
    op(
        "get",
        "/api/openapi.json",
        "openApi",
        "This document",
        USER,
        List.of(),
        null,
        ok(json(map("type", "object"))),
        401,
        403);
    op(
        "get",
        "/api/traces",
        "listTraces",
        "Every trace, oldest first, without their kernels",
        USER,
        List.of(),
        null,
        ok(json(ref("TraceList"))),
        401,
        403);
    op(
        "get",
        "/api/traces/{id}",
        "getTrace",
        "One trace with its kernels",
        USER,
        List.of(pathParam("id", "The trace id")),
        null,
        ok(json(ref("Trace"))),
        400,
        401,
        403,
        404);
    op(
        "get",
        "/api/gpu-configs",
        "listGpuConfigs",
        "The GPU config catalog, usable or not, sorted by name",
        USER,
        List.of(),
        null,
        ok(json(ref("GpuConfigList"))),
        401,
        403);
    op(
        "post",
        "/api/runs",
        "createRun",
        "Create a run: writes its sims as pending and launches them in the background",
        USER,
        List.of(),
        json(ref("RunRequest")),
        response(
            "201",
            "The run created; Location names it",
            json(ref("Run")),
            map("Location", map("schema", map("type", "string")))),
        400,
        401,
        403,
        404,
        409,
        413,
        422);
    op(
        "get",
        "/api/runs",
        "listRuns",
        "Every run, newest first, with sim counts by state",
        USER,
        List.of(),
        null,
        ok(json(ref("RunList"))),
        401,
        403);
    op(
        "get",
        "/api/runs/{id}",
        "getRun",
        "One run with its derived state and every sim",
        USER,
        List.of(pathParam("id", "The run id")),
        null,
        ok(json(ref("Run"))),
        401,
        403,
        404);
    op(
        "post",
        "/api/runs/{id}/cancel",
        "cancelRun",
        "Cancel every unfinished sim of the run; cancelling twice is harmless",
        USER,
        List.of(pathParam("id", "The run id")),
        null,
        ok(json(ref("Run"))),
        401,
        403,
        404);
    op(
        "get",
        "/api/runs/{id}/events",
        "runEvents",
        "Server-sent events: one per change of a sim (sim, kernel, log), with ids; resume with"
            + " Last-Event-ID or ?after=",
        USER,
        List.of(
            pathParam("id", "The run id"),
            param("query", "after", false, "Resume after this event id", integer()),
            param(
                "header", "Last-Event-ID", false, "Resume after this event id (wins)", integer())),
        null,
        ok(content("text/event-stream", ref("SimEventData"))),
        401,
        403,
        404,
        422);
    op(
        "get",
        "/api/runs/{id}/results",
        "getResults",
        "Per config, per kernel and in total: cycles, instructions, IPC and simulated time across"
            + " the succeeded replicas",
        USER,
        List.of(pathParam("id", "The run id")),
        null,
        ok(json(ref("Results"))),
        401,
        403,
        404);
    op(
        "get",
        "/api/runs/{id}/results.csv",
        "getResultsCsv",
        "The results as CSV, a row per kernel and a total row per config",
        USER,
        List.of(pathParam("id", "The run id")),
        null,
        ok(content("text/csv", map("type", "string"))),
        401,
        403,
        404);
    op(
        "get",
        "/api/sims/{id}/log",
        "getSimLog",
        "The sim's whole log as held so far, streamed; ?tail=n for its last n lines",
        USER,
        List.of(
            pathParam("id", "The sim id"),
            param(
                "query",
                "tail",
                false,
                "Only the last n lines (0 to 10000)",
                map("type", "integer", "minimum", 0, "maximum", OutputRoutes.MAX_TAIL_LINES))),
        null,
        ok(content("text/plain", map("type", "string"))),
        401,
        403,
        404,
        422);
    op(
        "get",
        "/api/sims/{id}/kernels",
        "getSimKernels",
        "The kernels the sim has finished, with every statistic of their blocks",
        USER,
        List.of(pathParam("id", "The sim id")),
        null,
        ok(json(ref("SimKernels"))),
        401,
        403,
        404);
    op(
        "post",
        "/api/sims/{id}/heartbeat",
        "simHeartbeat",
        "A sim reports its state; a final state is applied only once every chunk is held",
        SIM,
        List.of(pathParam("id", "The sim id")),
        json(ref("Heartbeat")),
        ok(json(ref("HeartbeatReply"))),
        400,
        401,
        403,
        404,
        413,
        422);
    op(
        "put",
        "/api/sims/{id}/chunks/{seq}",
        "putSimChunk",
        "A sim stores chunk seq of its output; idempotent",
        SIM,
        List.of(
            pathParam("id", "The sim id"),
            param("path", "seq", true, "The chunk's place, from 0", integer())),
        content("application/octet-stream", map("type", "string", "format", "binary")),
        ok(json(ref("ChunkReceipt"))),
        401,
        403,
        404,
        413,
        422);
  }

  private void schemas() {
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
        "RunEntry",
        object(
            List.of("gpu_config", "count"),
            "gpu_config",
            string("A GPU config name"),
            "count",
            map("type", "integer", "minimum", 1, "maximum", 64)));
    schemas.put(
        "RunRequest",
        object(
            List.of("trace_id", "entries"),
            "trace_id",
            string("A ready trace"),
            "entries",
            array(ref("RunEntry"))));
    schemas.put(
        "Sim",
        object(
            List.of("id", "run_id", "gpu_config", "replica", "state"),
            "id",
            string("s_..."),
            "run_id",
            string("r_..."),
            "gpu_config",
            string(null),
            "replica",
            integer(),
            "state",
            enumOf("pending", "launching", "running", "lost", "succeeded", "failed", "cancelled"),
            "error",
            nullable(string(null)),
            "exit_code",
            nullable(integer()),
            "launcher",
            nullable(string(null)),
            "launcher_ref",
            nullable(string(null)),
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
            nullable(string(null)),
            "latest_metrics",
            map("type", "object", "additionalProperties", map("type", "number")),
            "log_outcome",
            nullable(string("complete, not_final, failed, incomplete")),
            "heartbeat_age_s",
            nullable(map("type", "number", "description", "Seconds since the last heartbeat"))));
    Map<String, Object> runFields =
        fields(
            "id",
            string("r_..."),
            "trace_id",
            string(null),
            "state",
            enumOf("active", "succeeded", "partial", "cancelled", "failed"),
            "created_at",
            time(),
            "entries",
            array(ref("RunEntry")),
            "sim_count",
            integer());
    Map<String, Object> run = new LinkedHashMap<>(runFields);
    run.put("sims", array(ref("Sim")));
    schemas.put("Run", object(List.of("id", "trace_id", "state", "entries", "sims"), run));
    Map<String, Object> summary = new LinkedHashMap<>(runFields);
    summary.put(
        "sims_by_state", map("type", "object", "additionalProperties", map("type", "integer")));
    schemas.put("RunSummary", object(List.of("id", "trace_id", "state", "entries"), summary));
    schemas.put("RunList", object(List.of("runs"), "runs", array(ref("RunSummary"))));
    schemas.put(
        "TraceKernel",
        object(
            List.of("index", "file"),
            "index",
            integer(),
            "file",
            string(null),
            "name",
            nullable(string(null)),
            "grid",
            nullable(string("x,y,z")),
            "block",
            nullable(string("x,y,z")),
            "instructions",
            nullable(integer())));
    schemas.put(
        "Trace",
        object(
            List.of("id", "state"),
            "id",
            string(null),
            "state",
            enumOf("uploading", "processing", "ready", "failed"),
            "reason",
            nullable(string(null)),
            "trace_gpu_arch",
            string("sm_90"),
            "suggested_sim_config",
            nullable(string(null)),
            "model_name",
            nullable(string(null)),
            "traced_layers",
            array(string(null)),
            "kernel_count",
            integer(),
            "kernels",
            array(ref("TraceKernel")),
            "size_bytes",
            integer(),
            "sample",
            map("type", "boolean"),
            "runnable",
            map("type", "boolean"),
            "created_at",
            time(),
            "updated_at",
            time()));
    schemas.put("TraceList", object(List.of("traces"), "traces", array(ref("Trace"))));
    schemas.put(
        "GpuConfig",
        object(
            List.of("name", "usable"),
            "name",
            string(null),
            "arch",
            nullable(string("sm_90")),
            "clock_mhz",
            nullable(map("type", "number")),
            "sms",
            nullable(integer()),
            "has_trace_config",
            map("type", "boolean"),
            "usable",
            map("type", "boolean"),
            "reason",
            nullable(string(null)),
            "warnings",
            array(string(null))));
    schemas.put(
        "GpuConfigList", object(List.of("gpu_configs"), "gpu_configs", array(ref("GpuConfig"))));
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
                "Chunks produced so far (0 when absent)")));
    schemas.put(
        "HeartbeatReply",
        object(
            List.of("cancel"),
            "cancel",
            map("type", "boolean"),
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
    schemas.put(
        "KernelResult",
        object(
            List.of("position", "name", "cycles", "instructions", "ipc"),
            "position",
            integer(),
            "name",
            string(null),
            "uid",
            integer(),
            "instance",
            integer(),
            "cycles",
            integer(),
            "instructions",
            integer(),
            "ipc",
            map("type", "number"),
            "simulated_time_us",
            nullable(map("type", "number")),
            "stats",
            map("type", "object", "additionalProperties", map("type", "number"))));
    schemas.put(
        "SimKernels",
        object(
            List.of("sim_id", "kernels"),
            "sim_id",
            string(null),
            "run_id",
            string(null),
            "gpu_config",
            string(null),
            "replica",
            integer(),
            "state",
            string(null),
            "clock_mhz",
            nullable(map("type", "number")),
            "kernels",
            array(ref("KernelResult"))));
    schemas.put(
        "Spread",
        object(
            List.of("n", "mean", "stdev", "min", "max", "values"),
            "n",
            integer(),
            "mean",
            map("type", "number"),
            "stdev",
            map("type", "number", "description", "Sample standard deviation; 0 for one value"),
            "min",
            map("type", "number"),
            "max",
            map("type", "number"),
            "values",
            array(map("type", "number"))));
    schemas.put(
        "KernelComparison",
        object(
            List.of("name", "instance", "n", "replicas"),
            "name",
            string("\"(all kernels)\" for the total"),
            "instance",
            integer(),
            "n",
            integer(),
            "replicas",
            array(integer()),
            "cycles",
            ref("Spread"),
            "instructions",
            ref("Spread"),
            "ipc",
            ref("Spread"),
            "simulated_time_us",
            ref("Spread")));
    schemas.put(
        "ConfigResult",
        object(
            List.of("gpu_config", "replicas", "succeeded", "kernels", "total"),
            "gpu_config",
            string(null),
            "arch",
            nullable(string(null)),
            "clock_mhz",
            nullable(map("type", "number")),
            "replicas",
            integer(),
            "succeeded",
            integer(),
            "kernels",
            array(ref("KernelComparison")),
            "total",
            ref("KernelComparison"),
            "notes",
            array(string(null))));
    schemas.put(
        "Results",
        object(
            List.of("run_id", "configs"),
            "run_id",
            string(null),
            "trace_id",
            string(null),
            "state",
            string(null),
            "configs",
            array(ref("ConfigResult"))));
    schemas.put(
        "SimEventData",
        object(
            List.of("event_id", "run_id", "kind", "at", "data"),
            "event_id",
            integer(),
            "run_id",
            string(null),
            "sim_id",
            nullable(string(null)),
            "kind",
            enumOf("sim", "kernel", "log"),
            "at",
            time(),
            "data",
            map(
                "type",
                "object",
                "description",
                "sim: the sim as in a run; kernel: one finished kernel; log: {\"lines\": [...]}")));
  }

  // --- building blocks ------------------------------------------------------------------------

  private void op(
      String method,
      String path,
      String operationId,
      String summary,
      String security,
      List<Map<String, Object>> parameters,
      Map<String, Object> requestBody,
      Map<String, Object> success,
      int... errors) {
    Map<String, Object> operation = new LinkedHashMap<>();
    operation.put("operationId", operationId);
    operation.put("summary", summary);
    operation.put("security", security == null ? List.of() : List.of(map(security, List.of())));
    if (!parameters.isEmpty()) {
      operation.put("parameters", parameters);
    }
    if (requestBody != null) {
      operation.put("requestBody", map("required", true, "content", requestBody));
    }
    Map<String, Object> responses = new LinkedHashMap<>(success);
    for (int status : errors) {
      responses.put(
          Integer.toString(status),
          map(
              "description",
              ErrorMapping.codeFor(status).replace('_', ' '),
              "content",
              json(ref("Error"))));
    }
    operation.put("responses", responses);
    @SuppressWarnings("unchecked")
    Map<String, Object> item =
        (Map<String, Object>) paths.computeIfAbsent(path, p -> new LinkedHashMap<>());
    item.put(method, operation);
  }

  private static Map<String, Object> ok(Map<String, Object> content) {
    return response("200", "OK", content, null);
  }

  private static Map<String, Object> response(
      String status, String description, Map<String, Object> content, Map<String, Object> headers) {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("description", description);
    if (headers != null) {
      response.put("headers", headers);
    }
    response.put("content", content);
    return map(status, response);
  }

  private static Map<String, Object> json(Object schema) {
    return content("application/json", schema);
  }

  private static Map<String, Object> content(String type, Object schema) {
    return map(type, map("schema", schema));
  }

  private static Map<String, Object> pathParam(String name, String description) {
    return param("path", name, true, description, string(null));
  }

  private static Map<String, Object> param(
      String in, String name, boolean required, String description, Object schema) {
    return map(
        "name", name, "in", in, "required", required, "description", description, "schema", schema);
  }

  private static Map<String, Object> ref(String schema) {
    return map("$ref", "#/components/schemas/" + schema);
  }

  private static Map<String, Object> string(String description) {
    return description == null
        ? map("type", "string")
        : map("type", "string", "description", description);
  }

  private static Map<String, Object> integer() {
    return map("type", "integer", "format", "int64");
  }

  private static Map<String, Object> time() {
    return map("type", "string", "format", "date-time");
  }

  private static Map<String, Object> enumOf(String... values) {
    return map("type", "string", "enum", List.of(values));
  }

  private static Map<String, Object> array(Object items) {
    return map("type", "array", "items", items);
  }

  private static Map<String, Object> nullable(Map<String, Object> schema) {
    Map<String, Object> copy = new LinkedHashMap<>(schema);
    copy.put("nullable", true);
    return copy;
  }

  private static Map<String, Object> object(List<String> required, Object... nameSchemaPairs) {
    return object(required, fields(nameSchemaPairs));
  }

  private static Map<String, Object> object(List<String> required, Map<String, Object> fields) {
    return map("type", "object", "required", required, "properties", fields);
  }

  private static Map<String, Object> fields(Object... nameSchemaPairs) {
    return map(nameSchemaPairs);
  }

  /** An ordered map from alternating keys and values. */
  static Map<String, Object> map(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must pair up");
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
