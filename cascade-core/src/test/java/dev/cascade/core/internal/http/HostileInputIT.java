package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import dev.cascade.core.internal.http.HostileRequests.Probe;
import dev.cascade.core.internal.http.HostileRequests.Route;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input suite: a few thousand seeded, malformed requests to every route the OpenAPI
 * document lists (the user API and the sim side), and a few beyond it. None may get a 5xx, no error
 * body may name an internal class, and the server may log no stack trace. Bounded: a fixed number
 * of requests, each with a short time limit.
 */
final class HostileInputIT {

  private static final long SEED = 18L;
  private static final int PER_ROUTE = 160;
  private static final String TOKEN = "hostile-user-token";

  /** What an error body must never hold: the server's insides. */
  private static final Pattern INTERNALS = Pattern.compile("com\\.|java\\.|Exception|\\tat ");

  /** A stack trace line in the log. */
  private static final Pattern STACK_TRACE = Pattern.compile("(?m)^\\s+at [\\w.$]+\\(");

  @TempDir Path dataDir;
  private ApiServer server;
  private PrintStream originalErr;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws IOException {
    originalErr = System.err;
    // slf4j-simple writes to whatever System.err is at the time: keep a copy of what it says.
    System.setErr(new PrintStream(new Tee(originalErr, log), true, StandardCharsets.UTF_8));
    server = ApiServer.start(dataDir, settings -> settings.withToken(TOKEN));
  }

  @AfterEach
  void stop() {
    try {
      server.close();
    } finally {
      System.setErr(originalErr);
    }
  }

  @Test
  void everyRoute_survivesThousandsOfMalformedRequests() throws Exception {
    Map<String, String> user = Map.of("Authorization", "Bearer " + TOKEN);
    JsonNode run =
        server.post("/api/runs", runRequest(), "Authorization", "Bearer " + TOKEN).json();
    String runId = run.get("id").asText();
    List<String> sims = ApiServer.simIds(run);
    String simToken = server.simToken(sims.get(0));

    List<Route> routes = routesOfTheOpenApiDocument(user);
    assertThat(routes).hasSizeGreaterThanOrEqualTo(15);
    Map<String, List<String>> goodIds = new LinkedHashMap<>();
    for (Route route : routes) {
      String key = route.template() + "#id";
      if (route.template().startsWith("/api/runs/")) {
        goodIds.put(key, List.of(runId));
      } else if (route.template().startsWith("/api/sims/")) {
        goodIds.put(key, sims);
      } else if (route.template().startsWith("/api/traces/")) {
        goodIds.put(key, List.of("demo", "sample"));
      }
      goodIds.put(route.template() + "#seq", List.of("0", "1", "2"));
    }
    Map<String, String> bodies =
        Map.of(
            "/api/runs", runRequest(),
            "/api/sims/{id}/heartbeat",
                "{\"state\": \"running\", \"chunks\": 2, \"exit_code\": null, \"error\": null}",
            "/api/sims/{id}/chunks/{seq}", "GPGPU-Sim: kernel 'x' launched\n");
    HostileRequests generator = new HostileRequests(SEED, goodIds, bodies);
    List<Probe> probes = new ArrayList<>();
    for (Route route : routes) {
      Map<String, String> auth =
          route.template().startsWith("/api/sims/{id}/heartbeat")
                  || route.template().startsWith("/api/sims/{id}/chunks")
              ? Map.of("Authorization", "Bearer " + simToken)
              : user;
      probes.addAll(generator.generate(List.of(route), PER_ROUTE, auth));
    }
    // Beyond the document: the UI's files and paths nobody serves.
    probes.addAll(
        generator.generate(
            List.of(
                new Route("GET", "/"),
                new Route("GET", "/{id}"),
                new Route("POST", "/api/{id}"),
                new Route("GET", "/api/runs/{id}/sims/{id}")),
            PER_ROUTE / 4,
            user));

    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    List<String> failures = new ArrayList<>();
    int streams = 0;
    for (Probe probe : probes) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.api.port() + probe.path()))
              .timeout(Duration.ofSeconds(5))
              .method(
                  probe.method(),
                  probe.body().length == 0 && !probe.method().equals("POST")
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(probe.body()));
      probe.headers().forEach(request::header);
      int status;
      String body = "";
      try {
        // Answered once the headers are in: a stream (events, a log) is not read to its end.
        HttpResponse<InputStream> response =
            http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        status = response.statusCode();
        try (InputStream in = response.body()) {
          if (status >= 400) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } else if (probe.path().contains("/events")) {
            streams++;
          }
        }
      } catch (HttpTimeoutException e) {
        failures.add("no answer within 5 s: " + probe.describe());
        continue;
      } catch (IOException e) {
        // The server closed a connection on a request it refused outright: no 5xx there.
        continue;
      }
      if (status >= 500) {
        failures.add(status + " " + body + " for " + probe.describe());
      } else if (status >= 400 && INTERNALS.matcher(body).find()) {
        failures.add("internals in " + body + " for " + probe.describe());
      }
    }
    System.out.printf(
        "hostile input: %d requests to %d routes (seed %d), %d event streams opened, %d failures%n",
        probes.size(), routes.size() + 4, SEED, streams, failures.size());

    assertThat(failures).as("requests sent: %d", probes.size()).isEmpty();
    assertThat(probes).hasSizeGreaterThanOrEqualTo(2000);
    assertThat(server.api.responses(500)).isZero();
    // The log was captured (it has the start-up line), and holds no stack trace.
    assertThat(log.toString(StandardCharsets.UTF_8))
        .contains("Cascade started")
        .doesNotContainPattern(STACK_TRACE);
  }

  private String runRequest() {
    return "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 2}]}";
  }

  /** Every operation in {@code /api/openapi.json}, as method and path template. */
  private List<Route> routesOfTheOpenApiDocument(Map<String, String> user) {
    Response document = server.get("/api/openapi.json", "Authorization", user.get("Authorization"));
    List<Route> routes = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> paths = document.json().get("paths").fields();
    Set<String> methods = Set.of("get", "post", "put", "delete", "patch");
    while (paths.hasNext()) {
      Map.Entry<String, JsonNode> path = paths.next();
      path.getValue()
          .fieldNames()
          .forEachRemaining(
              method -> {
                if (methods.contains(method)) {
                  routes.add(new Route(method.toUpperCase(java.util.Locale.ROOT), path.getKey()));
                }
              });
    }
    return routes;
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
      first.write(bytes, offset, length);
      second.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      first.flush();
      second.flush();
    }
  }
}
