package dev.cascade.core.internal.http;

import static dev.cascade.core.internal.http.OpenApiJson.bool;
import static dev.cascade.core.internal.http.OpenApiJson.content;
import static dev.cascade.core.internal.http.OpenApiJson.enumOf;
import static dev.cascade.core.internal.http.OpenApiJson.integer;
import static dev.cascade.core.internal.http.OpenApiJson.json;
import static dev.cascade.core.internal.http.OpenApiJson.map;
import static dev.cascade.core.internal.http.OpenApiJson.number;
import static dev.cascade.core.internal.http.OpenApiJson.param;
import static dev.cascade.core.internal.http.OpenApiJson.pathParam;
import static dev.cascade.core.internal.http.OpenApiJson.ref;
import static dev.cascade.core.internal.http.OpenApiJson.string;
import static dev.cascade.core.internal.http.OpenApiJson.text;

import dev.cascade.agent.SimContract;
import dev.cascade.core.Role;
import dev.cascade.core.RunQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The document's {@code paths}: every route, by the group of routes that serves it. */
final class OpenApiPaths {

  static final String USER = "userToken";
  static final String SIM = "simToken";

  /**
   * The extension naming the least role an operation needs; a submitter's cancel, retry and rerun
   * take their own runs only (others' need admin).
   */
  static final String ROLE = "x-cascade-role";

  private static final Map<String, Object> RUN_ID = pathParam("id", "The run id");
  private static final Map<String, Object> SIM_ID = pathParam("id", "The sim id");
  private static final Map<String, Object> MEASURES =
      param(
          "query",
          "measures",
          false,
          "Measures beyond the defaults, comma-separated: any statistic the simulator printed, by"
              + " its own name (L2_total_cache_miss_rate), or NAME:change, NAME:sum, NAME:mean,"
              + " NAME:max, NAME:last; see GET /api/measures",
          string());
  private static final Map<String, Object> BASELINE =
      param(
          "query",
          "baseline",
          false,
          "The config the others are compared with (default the run's first)",
          string());

  private final Map<String, Object> paths = new LinkedHashMap<>();

  private OpenApiPaths() {}

  /** Every path item, in the order the document lists them. */
  static Map<String, Object> all() {
    OpenApiPaths api = new OpenApiPaths();
    api.operations();
    api.catalog();
    api.runs();
    api.compare();
    api.simOutput();
    api.simIngest();
    api.users();
    return api.paths;
  }

  /** {@code OpsRoutes}: health, metrics and this document. */
  private void operations() {
    op("get", "/healthz", "health", "Health check; needs no token")
        .answers(ok(json(ref("Health"))));
    op("get", "/metrics", "metrics", "Prometheus metrics in the text format; needs no token")
        .answers(ok(text("text/plain")));
    user("get", "/api/openapi.json", "openApi", "This document")
        .answers(ok(json(map("type", "object"))), 401, 403);
  }

  /** {@code TraceRoutes} and the GPU config catalog. */
  private void catalog() {
    user("get", "/api/traces", "listTraces", "Every trace, oldest first, without their kernels")
        .answers(ok(json(ref("TraceList"))), 401, 403);
    user("get", "/api/traces/{id}", "getTrace", "One trace with its kernels")
        .params(pathParam("id", "The trace id"))
        .answers(ok(json(ref("Trace"))), 400, 401, 403, 404);
    user(
            "get",
            "/api/traces/{id}/sampling",
            "getTraceSampling",
            "The trace's kernel sampling plan: strata, weights, share simulated, predicted error")
        .params(
            pathParam("id", "The trace id"),
            param("query", "target_error", false, "A fraction from 0.001 to 0.5; 0.05", number()),
            param("query", "budget", false, "At most this many kernels to simulate", integer()),
            param("query", "method", false, "instructions or features", string()))
        .answers(ok(json(ref("SamplingPlan"))), 400, 401, 403, 404, 409, 422);
    user(
            "put",
            "/api/traces/{id}/hardware",
            "putTraceHardware",
            "The trace's Nsight Compute CSV (ncu --csv --page raw), replacing any given before")
        .params(
            pathParam("id", "The trace id"),
            param("query", "name", false, "The CSV's name, for messages (ncu.csv)", string()))
        .body(text("text/csv"))
        .needs(Role.SUBMITTER)
        .answers(ok(json(ref("HardwareStored"))), 401, 403, 404, 422);
    user(
            "get",
            "/api/measures",
            "listMeasures",
            "The default measures, how to ask for any statistic by name, and with ?run=ID the"
                + " statistics that run's kernels printed")
        .params(param("query", "run", false, "A run whose statistics to list", string()))
        .answers(ok(json(ref("MeasureCatalog"))), 401, 403, 404);
    user(
            "get",
            "/api/gpu-configs",
            "listGpuConfigs",
            "The GPU config catalog, usable or not, sorted by name")
        .answers(ok(json(ref("GpuConfigList"))), 401, 403);
    user(
            "get",
            "/api/uploads",
            "getUploads",
            "Where to upload traces: the S3 endpoint, its bucket and the key prefix; 404 when"
                + " this server takes no S3 uploads")
        .answers(ok(json(ref("Uploads"))), 401, 403, 404);
    user(
            "get",
            "/api/simulator",
            "getSimulator",
            "What this server's sims run and at what pace: the emulator's simulated cycles per"
                + " second, or the real Accel-Sim, with a sentence for people")
        .answers(ok(json(ref("Simulator"))), 401, 403);
  }

  /** {@code RunRoutes} and the run's event stream and results. */
  private void runs() {
    user(
            "post",
            "/api/runs",
            "createRun",
            "Create a run: writes its sims as pending and launches them in the background. The"
                + " run is the caller's; only an admin's owner field is taken, anyone else's ignored")
        .body(json(ref("RunRequest")))
        .needs(Role.SUBMITTER)
        .answers(
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
    user(
            "get",
            "/api/runs",
            "listRuns",
            "A page of runs, newest first, with their configs and progress; filter by trace,"
                + " state and owner, and follow next_cursor for the next page")
        .params(
            param("query", "trace", false, "Only runs of this trace", string()),
            param(
                "query",
                "state",
                false,
                "Only runs in this state",
                enumOf("active", "succeeded", "partial", "cancelled", "failed")),
            param("query", "owner", false, "Only runs of this owner", string()),
            param(
                "query",
                "limit",
                false,
                "The most runs in the page (default " + RunQuery.DEFAULT_LIMIT + ")",
                map("type", "integer", "minimum", 1, "maximum", RunQuery.MAX_LIMIT)),
            param("query", "cursor", false, "next_cursor of the page before", string()))
        .answers(ok(json(ref("RunList"))), 400, 401, 403);
    user("get", "/api/runs/{id}", "getRun", "One run with its derived state and every sim")
        .params(RUN_ID)
        .answers(ok(json(ref("Run"))), 401, 403, 404);
    user(
            "get",
            "/api/runs/{id}/speed",
            "getRunSpeed",
            "How fast the simulator ran the run's succeeded sims (KIPS) per config, next to earlier"
                + " runs of the same trace and config on each simulator build")
        .params(RUN_ID)
        .answers(ok(json(ref("RunSpeed"))), 401, 403, 404);
    user(
            "post",
            "/api/runs/{id}/cancel",
            "cancelRun",
            "Cancel every unfinished sim of the run; cancelling twice is harmless. A submitter"
                + " cancels their own runs; an admin anyone's. Recorded in the run's actions")
        .params(RUN_ID)
        .needs(Role.SUBMITTER)
        .answers(ok(json(ref("Run"))), 401, 403, 404);
    user(
            "post",
            "/api/gc",
            "collectLogs",
            "Drop the logs (never the results) of finished runs created more than older_than ago,"
                + " and the kernel-window folders of finished sims; the database file then"
                + " shrinks; admins only")
        .needs(Role.ADMIN)
        .body(json(ref("GcRequest")))
        .answers(ok(json(ref("GcResult"))), 400, 401, 403, 422);
    user(
            "post",
            "/api/runs/{id}/retry",
            "retryRun",
            "Launch the run's failed and cancelled sims again as new attempts; earlier attempts"
                + " stay with their logs and errors; 409 when none failed or was cancelled. A"
                + " submitter retries their own runs; an admin anyone's")
        .params(RUN_ID)
        .needs(Role.SUBMITTER)
        .answers(ok(json(ref("Run"))), 401, 403, 404, 409);
    user(
            "post",
            "/api/runs/{id}/rerun",
            "rerunRun",
            "Create a new run of the same trace with the same entries, owned by the caller; a"
                + " submitter reruns their own runs, an admin anyone's")
        .params(RUN_ID)
        .needs(Role.SUBMITTER)
        .answers(
            response(
                "201",
                "The new run; Location names it",
                json(ref("Run")),
                map("Location", map("schema", map("type", "string")))),
            401,
            403,
            404,
            409,
            422);
    user(
            "get",
            "/api/runs/{id}/events",
            "runEvents",
            "Server-sent events: one per change of a sim (sim, kernel, log), with ids; resume with"
                + " Last-Event-ID or ?after=")
        .params(
            RUN_ID,
            param("query", "after", false, "Resume after this event id", integer()),
            param("header", "Last-Event-ID", false, "Resume after this event id (wins)", integer()))
        .answers(ok(content("text/event-stream", ref("SimEventData"))), 401, 403, 404, 422);
    user(
            "get",
            "/api/runs/{id}/results",
            "getResults",
            "Per config, per kernel and in total: cycles, thread instructions, IPC and simulated"
                + " time across the succeeded replicas, and the speedup over the baseline; with"
                + " ?measures=, any statistic the simulator printed too")
        .params(RUN_ID, BASELINE, MEASURES)
        .answers(ok(json(ref("Results"))), 401, 403, 404, 422);
    user(
            "get",
            "/api/runs/{id}/results.csv",
            "getResultsCsv",
            "The results as CSV, a row per kernel and a total row per config; while the run is"
                + " active, the header Cascade-Partial says what is still to come")
        .params(RUN_ID, BASELINE, MEASURES)
        .answers(ok(text("text/csv")), 401, 403, 404, 422);
    user(
            "get",
            "/api/runs/{id}/results/sims.csv",
            "getSimsCsv",
            "A tidy CSV for pandas: a row per sim and finished kernel, every numeric statistic a"
                + " column")
        .params(RUN_ID)
        .answers(ok(text("text/csv")), 401, 403, 404);
    user(
            "get",
            "/api/runs/{id}/results/get_stats.csv",
            "getGetStatsCsv",
            "The succeeded sims in the CSV layout of Accel-Sim's get_stats.py -k -K, for"
                + " merge-stats.py and plot-get-stats.py")
        .params(
            RUN_ID,
            param(
                "query",
                ExportRoutes.CONFIGS_AS_ROWS,
                false,
                "true for configs as rows, kernels as columns (get_stats.py -R)",
                bool()))
        .answers(ok(text("text/csv")), 400, 401, 403, 404);
    user(
            "get",
            "/api/runs/{id}/correlation",
            "getCorrelation",
            "The run's kernels against the Nsight Compute numbers of its trace, per config of"
                + " the trace's architecture, paired by launch order")
        .params(RUN_ID)
        .answers(ok(json(ref("HardwareCorrelation"))), 401, 403, 404, 422);
  }

  /** {@code CompareRoutes}: runs against a baseline run. */
  private void compare() {
    user(
            "get",
            "/api/compare",
            "compareRuns",
            "Runs against the first (the baseline): per config both have, per kernel and in total,"
                + " the change in cycles, IPC and simulated time with the spread test (with"
                + " ?measures=, any statistic the simulator printed too), and which inputs differ"
                + " (trace, config content, simulator, simulator build)")
        .params(
            param(
                "query",
                "runs",
                true,
                "2 to 16 run ids separated by commas, the baseline first",
                string()),
            MEASURES)
        .answers(ok(json(ref("RunComparison"))), 401, 403, 404, 409, 422);
  }

  /** {@code OutputRoutes}: what a sim has written, for users. */
  private void simOutput() {
    user(
            "get",
            "/api/sims/{id}/log",
            "getSimLog",
            "The sim's whole log as held so far, streamed; ?tail=n for its last n lines")
        .params(
            SIM_ID,
            param(
                "query",
                "tail",
                false,
                "Only the last n lines (0 to 10000)",
                map("type", "integer", "minimum", 0, "maximum", OutputRoutes.MAX_TAIL_LINES)))
        .answers(ok(text("text/plain")), 401, 403, 404, 422);
    user(
            "get",
            "/api/runs/{id}/entries/{entry}/{file}",
            "getEntryConfig",
            "An option file of the run's entry (from 0) as its sims read it: gpgpusim.config or"
                + " trace.config, a variant's with its parameters applied")
        .params(
            RUN_ID,
            param("path", "entry", true, "The entry, from 0", map("type", "integer", "minimum", 0)),
            param(
                "path",
                "file",
                true,
                "gpgpusim.config or trace.config",
                map("type", "string", "enum", List.of("gpgpusim.config", "trace.config"))))
        .answers(ok(text("text/plain")), 401, 403, 404, 422);
    user(
            "get",
            "/api/sims/{id}/kernels",
            "getSimKernels",
            "The kernels the sim has finished, with every statistic of their blocks")
        .params(SIM_ID)
        .answers(ok(json(ref("SimKernels"))), 401, 403, 404);
  }

  /** {@code SimRoutes}: what a sim sends, with its own token. */
  private void simIngest() {
    op(
            "post",
            "/api/sims/{id}/heartbeat",
            "simHeartbeat",
            "A sim reports its state; a final state is applied only once every chunk is held")
        .security(SIM)
        .params(SIM_ID)
        .body(json(ref("Heartbeat")))
        .answers(ok(json(ref("HeartbeatReply"))), 400, 401, 403, 404, 413, 422);
    op(
            "put",
            "/api/sims/{id}/chunks/{seq}",
            "putSimChunk",
            "A sim stores chunk seq of its output; idempotent for the same bytes, a conflict for"
                + " other bytes or a new chunk after the sim's end")
        .security(SIM)
        .params(
            SIM_ID,
            param("path", "seq", true, "The chunk's place, from 0", integer()),
            param(
                "header",
                SimContract.CHUNK_READ_AT_HEADER,
                false,
                "When the agent read the chunk's last bytes, in milliseconds since 1970: the"
                    + " kernels the chunk finishes are timed by it (a spooled chunk arrives"
                    + " late); without it, by the chunk's arrival",
                integer()))
        .body(content("application/octet-stream", map("type", "string", "format", "binary")))
        .answers(ok(json(ref("ChunkReceipt"))), 401, 403, 404, 409, 413, 422);
    op(
            "get",
            "/api/sims/{id}/trace",
            "getSimTraceManifest",
            "The sim's trace for nodes without the app's disk: its files with size and SHA-256,"
                + " and a content hash over them, the key of the node's cache")
        .security(SIM)
        .params(SIM_ID)
        .answers(ok(json(map("type", "object"))), 401, 403, 404);
    op("get", "/api/sims/{id}/trace/file", "getSimTraceFile", "One file of the sim's trace")
        .security(SIM)
        .params(
            SIM_ID,
            param(
                "query", "path", true, "The file, as the manifest lists it", map("type", "string")))
        .answers(
            ok(content("application/octet-stream", map("type", "string", "format", "binary"))),
            400,
            401,
            403,
            404,
            422);
  }

  // --- building blocks ------------------------------------------------------------------------

  /** An operation that needs no token, until {@link Operation#security} says otherwise. */
  private Operation op(String method, String path, String operationId, String summary) {
    return new Operation(method, path, operationId, summary);
  }

  /** An operation that takes a user's token, open to every role until {@link Operation#needs}. */
  private Operation user(String method, String path, String operationId, String summary) {
    return op(method, path, operationId, summary).security(USER).needs(Role.VIEWER);
  }

  /** {@code UserRoutes}: who the caller is, and the users (admins only). */
  private void users() {
    user("get", "/api/me", "getMe", "Who the caller is: the user of the token and their role")
        .answers(ok(json(ref("Me"))), 401);
    user("get", "/api/users", "listUsers", "Every user, revoked and expired ones included")
        .needs(Role.ADMIN)
        .answers(ok(json(ref("UserList"))), 401, 403);
    user(
            "post",
            "/api/users",
            "addUser",
            "Add a user with a role; the answer holds their token, shown this once")
        .needs(Role.ADMIN)
        .body(json(ref("NewUserRequest")))
        .answers(
            response(
                "201",
                "The user and their token",
                json(ref("NewUser")),
                map("Location", map("schema", map("type", "string")))),
            400,
            401,
            403,
            409,
            413,
            422);
    user(
            "post",
            "/api/users/{name}/revoke",
            "revokeUser",
            "Revoke the user's token: their next request is 401; revoking twice is harmless")
        .needs(Role.ADMIN)
        .params(pathParam("name", "The user's name"))
        .answers(ok(json(ref("User"))), 401, 403, 404);
  }

  /** One operation being described; {@link #answers} adds it to the paths. */
  private final class Operation {
    private final String method;
    private final String path;
    private final Map<String, Object> operation = new LinkedHashMap<>();
    private final List<Map<String, Object>> parameters = new ArrayList<>();
    private String security;
    private Map<String, Object> requestBody;

    private Operation(String method, String path, String operationId, String summary) {
      this.method = method;
      this.path = path;
      operation.put("operationId", operationId);
      operation.put("summary", summary);
    }

    Operation security(String scheme) {
      security = scheme;
      return this;
    }

    /** The least role that may call it, as {@code x-cascade-role}. */
    Operation needs(Role role) {
      operation.put(ROLE, role.wireName());
      return this;
    }

    @SafeVarargs
    final Operation params(Map<String, Object>... more) {
      for (Map<String, Object> parameter : more) {
        parameters.add(parameter);
      }
      return this;
    }

    Operation body(Map<String, Object> content) {
      requestBody = content;
      return this;
    }

    /** Adds the operation: {@code success}, and each of {@code errors} as an {@code Error}. */
    void answers(Map<String, Object> success, int... errors) {
      operation.put("security", security == null ? List.of() : List.of(map(security, List.of())));
      if (!parameters.isEmpty()) {
        operation.put("parameters", List.copyOf(parameters));
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
}
