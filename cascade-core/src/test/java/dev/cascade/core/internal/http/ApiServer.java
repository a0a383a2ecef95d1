package dev.cascade.core.internal.http;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestTraces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * A real server on an ephemeral loopback port over a Cascade whose launcher starts nothing, with a
 * ready trace {@code demo} (3 kernels) and a sample trace {@code sample}; and a JDK HTTP client.
 */
final class ApiServer implements AutoCloseable {

  static final Duration WAIT = Duration.ofSeconds(20);
  static final ObjectMapper JSON = new ObjectMapper();

  final Path dataDir;
  final Engine engine;
  final HttpApi api;
  final IdleLauncher launcher = new IdleLauncher();
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private ApiServer(Path dataDir, UnaryOperator<ServerSettings> settings) throws IOException {
    this.dataDir = dataDir;
    writeTrace(dataDir, "demo", 3, "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\"}");
    writeTrace(
        dataDir,
        "sample",
        1,
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\", \"sample\": true}");
    this.engine =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .monitorInterval(Duration.ZERO)
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .finishedStopDelay(Duration.ZERO)
                .simCommand(List.of("simulate"))
                .mainUrl("http://127.0.0.1:9")
                .settings());
    this.api = HttpApi.start(engine, settings.apply(ServerSettings.defaults().withPort(0)));
    engine.startLaunching("http://127.0.0.1:9");
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.traces().find("demo").map(t -> t.state() == TraceState.READY).orElse(false)
                    && engine.traces().find("sample").isPresent());
  }

  static ApiServer start(Path dataDir) throws IOException {
    return new ApiServer(dataDir, s -> s);
  }

  static ApiServer start(Path dataDir, UnaryOperator<ServerSettings> settings) throws IOException {
    return new ApiServer(dataDir, settings);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + api.port() + path);
  }

  /**
   * The token sim {@code simId} was last launched with, as the launcher handed it over (waiting for
   * the launch); for a sim that does not exist, a made-up one.
   */
  String simToken(String simId) {
    if (engine.runs().find(runIdOf(simId)).isEmpty()) {
      return "not-a-sim-token";
    }
    return await().atMost(WAIT).until(() -> launcher.tokenOf(simId), token -> token != null);
  }

  private String runIdOf(String simId) {
    try {
      return engine.runs().sim(simId).runId();
    } catch (RuntimeException e) {
      return "r_none";
    }
  }

  Response get(String path, String... headers) {
    return send(HttpRequest.newBuilder(uri(path)).GET(), headers);
  }

  Response post(String path, String json, String... headers) {
    return send(
        HttpRequest.newBuilder(uri(path))
            .POST(BodyPublishers.ofString(json))
            .header("Content-Type", "application/json"),
        headers);
  }

  Response put(String path, byte[] body, String... headers) {
    return send(
        HttpRequest.newBuilder(uri(path))
            .PUT(BodyPublishers.ofByteArray(body))
            .header("Content-Type", "application/octet-stream"),
        headers);
  }

  Response method(String method, String path, byte[] body, String... headers) {
    return send(
        HttpRequest.newBuilder(uri(path)).method(method, BodyPublishers.ofByteArray(body)),
        headers);
  }

  Response send(HttpRequest.Builder request, String... headers) {
    if (headers.length > 0) {
      request.headers(headers);
    }
    try {
      var response = http.send(request.timeout(WAIT).build(), BodyHandlers.ofString());
      return new Response(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Creates a run of {@code count} sims of SM90_H100 on {@code demo}; returns its JSON. */
  JsonNode createRun(int count) {
    Response created =
        post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": "
                + count
                + "}]}");
    if (created.status() != 201) {
      throw new AssertionError("creating a run failed: " + created);
    }
    return created.json();
  }

  static List<String> simIds(JsonNode run) {
    List<String> ids = new ArrayList<>();
    run.get("sims").forEach(sim -> ids.add(sim.get("id").asText()));
    return ids;
  }

  /** The sim's {@code Authorization} header pair. */
  String[] simAuth(String simId) {
    return new String[] {"Authorization", "Bearer " + simToken(simId)};
  }

  Response heartbeat(String simId, String json) {
    return post("/api/sims/" + simId + "/heartbeat", json, simAuth(simId));
  }

  Response chunk(String simId, long seq, String text) {
    return put(
        "/api/sims/" + simId + "/chunks/" + seq,
        text.getBytes(StandardCharsets.UTF_8),
        simAuth(simId));
  }

  @Override
  public void close() {
    try {
      api.close();
    } finally {
      engine.close();
    }
  }

  static void writeTrace(Path dataDir, String id, int kernels, String metadata) throws IOException {
    TestTraces.write(dataDir, id, kernels, metadata);
  }

  /** An HTTP answer. */
  record Response(int status, HttpHeaders headers, String body) {

    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (" + status + "): " + body, e);
      }
    }

    /** The error body's code, or fails when the body is not the API's error body. */
    String errorCode() {
      JsonNode error = json().get("error");
      if (error == null || !error.hasNonNull("code") || !error.hasNonNull("message")) {
        throw new AssertionError("not an error body (" + status + "): " + body);
      }
      return error.get("code").asText();
    }

    /** The error body's message. */
    String errorMessage() {
      errorCode();
      return json().get("error").get("message").asText();
    }

    String errorField() {
      JsonNode field = json().get("error").get("field");
      return field == null || field.isNull() ? null : field.asText();
    }
  }

  /** Starts nothing; records what it was asked to launch. */
  static final class IdleLauncher implements Launcher {
    final List<SimLaunch> launches = new CopyOnWriteArrayList<>();
    final List<String> stops = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
      return "idle";
    }

    String tokenOf(String simId) {
      String token = null;
      for (SimLaunch launch : launches) {
        if (launch.simId().equals(simId)) {
          token = launch.contract().simToken();
        }
      }
      return token;
    }

    @Override
    public String launch(SimLaunch launch) {
      launches.add(launch);
      return "idle-" + launch.simId();
    }

    @Override
    public void stop(String launcherRef) {
      stops.add(launcherRef);
    }
  }
}
