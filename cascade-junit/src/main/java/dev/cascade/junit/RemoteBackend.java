package dev.cascade.junit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.SimState;
import dev.cascade.core.Spread;
import dev.cascade.core.TraceState;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An experiment on a running Cascade, through its HTTP API ({@code docs/api.md}): a thin client
 * that creates runs, polls them until they finish and reads their results. Errors the server
 * answers become {@link CascadeException}s with its code, message and field, as an embedded Cascade
 * would throw them. Runs it created and that are still going when it closes are cancelled.
 */
final class RemoteBackend implements Backend, AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration FIRST_POLL = Duration.ofMillis(200);
  private static final Duration LONGEST_POLL = Duration.ofSeconds(1);

  private final String baseUrl;
  private final String token;
  private final HttpClient http;
  private final Set<String> created = ConcurrentHashMap.newKeySet();

  RemoteBackend(String baseUrl, String token) {
    String url = baseUrl.strip();
    while (url.endsWith("/")) {
      url = url.substring(0, url.length() - 1);
    }
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null
        || uri.getHost() == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
      throw new IllegalArgumentException(
          "server \""
              + baseUrl
              + "\" is not the URL of a running Cascade; give one such as http://127.0.0.1:8080,"
              + " or leave it empty for an embedded Cascade");
    }
    this.baseUrl = url;
    this.token = token == null || token.isBlank() ? null : token.strip();
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  /** Fails at once, naming the server, when it cannot be reached or refuses the token. */
  RemoteBackend check() {
    get("/api/traces");
    return this;
  }

  @Override
  public String describe() {
    return "the Cascade at " + baseUrl;
  }

  @Override
  public Optional<TraceStatus> trace(String id) {
    Optional<JsonNode> trace = find("/api/traces/" + id);
    return trace.map(
        node ->
            new TraceStatus(
                node.path("id").asText(),
                TraceState.fromWireName(node.path("state").asText()),
                text(node, "reason"),
                node.path("sample").asBoolean()));
  }

  @Override
  public Optional<TraceStatus> awaitTrace(String id, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = FIRST_POLL;
    while (true) {
      Optional<TraceStatus> trace = trace(id);
      if (trace.isEmpty()
          || trace.get().state() == TraceState.READY
          || trace.get().state() == TraceState.FAILED
          || System.nanoTime() >= deadline) {
        return trace;
      }
      pause = pause(pause, deadline);
    }
  }

  @Override
  public List<String> traceIds() {
    List<String> ids = new ArrayList<>();
    get("/api/traces").path("traces").forEach(trace -> ids.add(trace.path("id").asText()));
    return ids;
  }

  @Override
  public String create(String traceId, List<RunEntry> entries) {
    ObjectNode body = JSON.createObjectNode();
    body.put("trace_id", traceId);
    ArrayNode items = body.putArray("entries");
    for (RunEntry entry : entries) {
      items.addObject().put("gpu_config", entry.gpuConfig()).put("count", entry.count());
    }
    String id = send("POST", "/api/runs", body).path("id").asText();
    created.add(id);
    return id;
  }

  @Override
  public RunStatus await(String runId, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = FIRST_POLL;
    while (true) {
      RunStatus run = run(runId);
      if (run.state() != RunState.ACTIVE || System.nanoTime() >= deadline) {
        if (run.state() != RunState.ACTIVE) {
          created.remove(runId);
        }
        return run;
      }
      pause = pause(pause, deadline);
    }
  }

  @Override
  public List<ConfigResult> results(String runId) {
    List<ConfigResult> results = new ArrayList<>();
    for (JsonNode config : get("/api/runs/" + runId + "/results").path("configs")) {
      List<KernelComparison> kernels = new ArrayList<>();
      config.path("kernels").forEach(kernel -> kernels.add(comparison(kernel)));
      List<String> notes = new ArrayList<>();
      config.path("notes").forEach(note -> notes.add(note.asText()));
      results.add(
          new ConfigResult(
              config.path("gpu_config").asText(),
              text(config, "arch"),
              config.path("clock_mhz").isNumber() ? config.path("clock_mhz").asDouble() : null,
              config.path("replicas").asInt(),
              config.path("succeeded").asInt(),
              kernels,
              comparison(config.path("total")),
              notes));
    }
    return results;
  }

  @Override
  public void cancel(String runId) {
    send("POST", "/api/runs/" + runId + "/cancel", null);
    created.remove(runId);
  }

  /** Cancels the runs this client created that are still going. */
  @Override
  public void close() {
    for (String runId : List.copyOf(created)) {
      try {
        cancel(runId);
      } catch (RuntimeException e) {
        System.getLogger(RemoteBackend.class.getName())
            .log(System.Logger.Level.WARNING, "cannot cancel run " + runId + " at " + baseUrl, e);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  private RunStatus run(String runId) {
    JsonNode run = get("/api/runs/" + runId);
    List<SimStatus> sims = new ArrayList<>();
    for (JsonNode sim : run.path("sims")) {
      sims.add(
          new SimStatus(
              sim.path("id").asText(),
              sim.path("gpu_config").asText(),
              sim.path("replica").asInt(),
              SimState.fromWireName(sim.path("state").asText()),
              text(sim, "error"),
              sim.path("kernels_done").asInt(),
              sim.path("kernels_total").asInt(),
              List.of()));
    }
    return new RunStatus(
        run.path("id").asText(),
        run.path("trace_id").asText(),
        RunState.valueOf(run.path("state").asText().toUpperCase(Locale.ROOT)),
        sims);
  }

  private static KernelComparison comparison(JsonNode kernel) {
    List<Integer> replicas = new ArrayList<>();
    kernel.path("replicas").forEach(replica -> replicas.add(replica.asInt()));
    return new KernelComparison(
        kernel.path("name").asText(),
        kernel.path("instance").asInt(),
        replicas,
        spread(kernel.path("cycles")),
        spread(kernel.path("instructions")),
        spread(kernel.path("ipc")),
        spread(kernel.path("simulated_time_us")));
  }

  private static Spread spread(JsonNode spread) {
    List<Double> values = new ArrayList<>();
    spread.path("values").forEach(value -> values.add(value.asDouble()));
    return new Spread(
        spread.path("n").asInt(),
        spread.path("mean").asDouble(),
        spread.path("stdev").asDouble(),
        spread.path("min").asDouble(),
        spread.path("max").asDouble(),
        values);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() ? value.asText() : null;
  }

  private static Duration pause(Duration pause, long deadline) throws InterruptedException {
    long left = deadline - System.nanoTime();
    Thread.sleep(Duration.ofNanos(Math.max(0, Math.min(left, pause.toNanos()))));
    Duration next = pause.multipliedBy(2);
    return next.compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : next;
  }

  private JsonNode get(String path) {
    return send("GET", path, null);
  }

  /** {@code GET path}; empty when the server answers 404. */
  private Optional<JsonNode> find(String path) {
    try {
      return Optional.of(get(path));
    } catch (CascadeException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private JsonNode send(String method, String path, JsonNode body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "cannot reach the Cascade at "
              + baseUrl
              + " ("
              + method
              + " "
              + path
              + ": "
              + e
              + "); start it (./cascade serve) or fix @CascadeExperiment(server = ...)",
          null,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CascadeException(
          ErrorCode.UNAVAILABLE, "interrupted talking to the Cascade at " + baseUrl, null, e);
    }
    JsonNode json = parse(response.body());
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return json;
    }
    JsonNode error = json.path("error");
    throw new CascadeException(
        code(status),
        error.path("message").isTextual()
            ? error.path("message").asText()
            : "the Cascade at " + baseUrl + " answered " + method + " " + path + " with " + status,
        text(error, "field"));
  }

  private static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  private static ErrorCode code(int status) {
    for (ErrorCode code : ErrorCode.values()) {
      if (code.httpStatus() == status) {
        return code;
      }
    }
    return status >= 500 ? ErrorCode.INTERNAL : ErrorCode.BAD_REQUEST;
  }
}
