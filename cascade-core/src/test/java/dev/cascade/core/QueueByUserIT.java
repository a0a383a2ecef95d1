package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.core.internal.run.Heartbeat;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fairness between two users' tokens, as {@link QueueTest} checks it between two owners: each run's
 * owner is the user whose token created it (no body names one), and the queue goes round between
 * them.
 */
final class QueueByUserIT {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Set<SimState> HOLDING =
      Set.of(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private final RecordingLauncher launcher = new RecordingLauncher();
  private final HttpClient http = HttpClient.newHttpClient();
  private Engine engine;
  private HttpApi api;

  @BeforeEach
  void startWithTwoSlotsAndAToken() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    launcher.slots = OptionalInt.of(2);
    engine =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .clock(clock)
                .monitorInterval(Duration.ZERO)
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .finishedStopDelay(Duration.ZERO)
                .simCommand(List.of("simulate"))
                .mainUrl("http://127.0.0.1:9999")
                .settings());
    api = HttpApi.start(engine, ServerSettings.defaults().withPort(0).withToken("admin-token"));
    engine.startLaunching("http://127.0.0.1:9999");
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.traces().find("demo").map(t -> t.state() == TraceState.READY).orElse(false));
  }

  @AfterEach
  void stop() {
    api.close();
    engine.close();
    http.close();
  }

  private JsonNode create(String token, String config, int count) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(api.url() + "/api/runs"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \""
                            + config
                            + "\", \"count\": "
                            + count
                            + "}]}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return JSON.readTree(response.body());
  }

  private JsonNode list(String token, String query) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(api.url() + "/api/runs" + query))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("runs");
  }

  private List<Sim> holding() {
    return engine.runs().list().stream()
        .flatMap(run -> run.sims().stream())
        .filter(sim -> HOLDING.contains(sim.state()))
        .toList();
  }

  private void finishOne() {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(holding())
                    .hasSize(2)
                    .allSatisfy(sim -> assertThat(sim.launcherRef()).isNotNull()));
    String simId = holding().getFirst().id();
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
  }

  @Test
  void aSecondUsersSingleSim_startsWithinTheFirstThreeSlotOpenings() throws Exception {
    String alice = engine.users().add("alice", Role.SUBMITTER, null, "local").token();
    String bob = engine.users().add("bob", Role.SUBMITTER, null, "local").token();
    JsonNode big = create(alice, "SM90_H100", 64);
    JsonNode single = create(bob, "SM90_H200", 1);
    String bobs = single.get("sims").get(0).get("id").asText();
    await().atMost(WAIT).until(() -> launcher.attempts.size() == 2);

    for (int opening = 1; opening <= 3 && !launcher.attempts.contains(bobs); opening++) {
      finishOne();
      int opened = opening;
      await().atMost(WAIT).until(() -> launcher.attempts.size() == 2 + opened);
    }

    assertThat(launcher.attempts.indexOf(bobs)).isBetween(2, 4);
    assertThat(big.get("owner").asText()).isEqualTo("alice");
    assertThat(single.get("owner").asText()).isEqualTo("bob");
    JsonNode bobsRuns = list(alice, "?owner=bob");
    assertThat(bobsRuns).hasSize(1);
    assertThat(bobsRuns.get(0).get("id").asText()).isEqualTo(single.get("id").asText());
  }
}
