package dev.cascade.core.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a real server ({@link CrashServerMain}) at points of a run's life and checks, after a
 * restart on the same port, what a crash must never break: every run finishes, every sim succeeds
 * (no sim is left launching without a process, none is failed for the app's own outage), each log
 * is whole and fully parsed, and no sim process is left behind.
 *
 * <p>Heartbeat timeout 2 s, so the give-up is 20 s; the long outage lasts 21 s. Runs of 4 sims, at
 * most 2 launches at once.
 */
final class CrashMatrixIT {

  private static final long HEARTBEAT_TIMEOUT_MS = 2_000;
  private static final Duration SHORT_OUTAGE = Duration.ofMillis(500);
  private static final Duration LONG_OUTAGE = Duration.ofMillis(10 * HEARTBEAT_TIMEOUT_MS + 1_000);
  private static final Duration RUN_WAIT = Duration.ofSeconds(120);
  private static final String SPEED = "10000";
  private static final String RUN_BODY =
      "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 4}]}";

  private static final String ONE_SIM =
      "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H200\", \"count\": 1}]}";

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;
  private Path dataDir;
  private int port;
  private ServerProcess server;

  @BeforeEach
  void pickAPort() throws IOException {
    Assumptions.assumeTrue(
        new dev.cascade.core.LocalLauncher().unavailableReason().isEmpty(),
        "the local launcher cannot run here");
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
  }

  @AfterEach
  void stopEverything() {
    if (server != null) {
      server.kill();
    }
    if (dataDir != null) {
      SimProcesses.killAll(dataDir);
    }
  }

  @Test
  void killDuringCreate() throws Exception {
    start("during-create");
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    acknowledged.add(create(ONE_SIM));
    acknowledged.add(create(ONE_SIM));
    CompletableFuture<String> third = createAsync(ONE_SIM);
    Thread.sleep(5); // the kill lands while the third create is on its way or being handled
    crashAndRestart(SHORT_OUTAGE); // 2 runs created, a third being created
    acknowledged.addAll(acknowledged(third));
    System.out.println("crash matrix during-create: runs acknowledged " + acknowledged.size());

    checkInvariants(acknowledged);
  }

  @Test
  void killMidLaunch_withLaunchesThrottled() throws Exception {
    start("mid-launch");
    String runId = create(); // 4 sims, 2 launch calls at once: most are pending or launching
    crashAndRestart(SHORT_OUTAGE);

    checkInvariants(Set.of(runId));
  }

  @Test
  void killMidRun_outageShorterThanTheGiveUp() throws Exception {
    start("mid-run-short");
    String runId = create();
    awaitSims(runId, sim -> sim.get("kernels_done").asInt() >= 1);
    crashAndRestart(SHORT_OUTAGE);

    checkInvariants(Set.of(runId));
  }

  @Test
  void killMidRun_outageLongerThan10TimesTheHeartbeatTimeout() throws Exception {
    start("mid-run-long");
    String runId = create();
    awaitSims(runId, sim -> sim.get("kernels_done").asInt() >= 1);
    crashAndRestart(LONG_OUTAGE);

    checkInvariants(Set.of(runId));
  }

  @Test
  void killDuringTheFinalHeartbeats() throws Exception {
    start("final-heartbeats");
    String runId = create();
    awaitSims(runId, sim -> sim.get("state").asText().equals("succeeded"));
    crashAndRestart(SHORT_OUTAGE);

    checkInvariants(Set.of(runId));
  }

  private void start(String name) throws IOException {
    dataDir = dir.resolve(name);
    server = ServerProcess.start(dataDir, port, HEARTBEAT_TIMEOUT_MS, SPEED);
  }

  private void crashAndRestart(Duration outage) throws Exception {
    server.kill(); // SIGKILL: no shutdown hook, no close
    System.out.println(
        "crash matrix " + dataDir.getFileName() + ": killed with sims " + statesAtKill());
    Thread.sleep(outage.toMillis()); // the outage itself, not a wait for a condition
    server = ServerProcess.start(dataDir, port, HEARTBEAT_TIMEOUT_MS, SPEED);
  }

  /**
   * After the restart: every run the server acknowledged exists, every run finishes with every sim
   * succeeded, each sim's log is complete and every kernel in it is parsed, and once the runs are
   * over no sim process is left.
   */
  private void checkInvariants(Set<String> acknowledged) throws Exception {
    List<String> runIds = new ArrayList<>();
    get("/api/runs").get("runs").forEach(run -> runIds.add(run.get("id").asText()));
    assertThat(runIds).as("acknowledged runs survive the crash").containsAll(acknowledged);
    System.out.println(
        "crash matrix " + dataDir.getFileName() + ": " + runIds.size() + " runs after the restart");

    for (String runId : runIds) {
      await()
          .atMost(RUN_WAIT)
          .pollInterval(Duration.ofMillis(250))
          .until(() -> !get("/api/runs/" + runId).get("state").asText().equals("active"));
      JsonNode run = get("/api/runs/" + runId);
      assertThat(run.get("state").asText()).as(run::toPrettyString).isEqualTo("succeeded");
      for (JsonNode sim : run.get("sims")) {
        String simId = sim.get("id").asText();
        String log = text("/api/sims/" + simId + "/log");
        long kernelsInLog = log.lines().filter(line -> line.startsWith("kernel_name")).count();
        JsonNode kernels = get("/api/sims/" + simId + "/kernels").get("kernels");
        assertThat(sim.get("log_outcome").asText()).as(simId).isEqualTo("complete");
        assertThat(sim.get("kernels_done").asInt()).as(simId).isEqualTo(3);
        assertThat(kernelsInLog).as("every held kernel of %s is parsed", simId).isEqualTo(3);
        assertThat(kernels.size()).as(simId).isEqualTo(3);
      }
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> assertThat(SimProcesses.alive(dataDir)).as("sim processes left").isEmpty());
  }

  /**
   * The sims' states as the dead server left them in its database, read after the kill so that
   * looking does not move the kill point: state, "(no ref)" without a launcher ref, kernels done.
   */
  private String statesAtKill() {
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("cascade.db"));
        Statement statement = db.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT state, launcher_ref IS NULL, kernels_done FROM sims ORDER BY id")) {
      StringBuilder states = new StringBuilder();
      while (rows.next()) {
        states
            .append(rows.getString(1))
            .append(rows.getBoolean(2) ? "(no ref)" : "")
            .append('/')
            .append(rows.getInt(3))
            .append(' ');
      }
      return states.isEmpty() ? "no sim yet" : states.toString().strip();
    } catch (SQLException e) {
      return "states unknown (" + e.getMessage() + ")";
    }
  }

  private String create() throws Exception {
    return create(RUN_BODY);
  }

  private String create(String body) throws Exception {
    return acknowledged(createAsync(body)).iterator().next();
  }

  private CompletableFuture<String> createAsync(String body) {
    HttpRequest request =
        HttpRequest.newBuilder(uri("/api/runs"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(BodyPublishers.ofString(body))
            .build();
    return http.sendAsync(request, BodyHandlers.ofString())
        .thenApply(
            response -> {
              if (response.statusCode() != 201) {
                throw new IllegalStateException("create answered " + response.statusCode());
              }
              try {
                return JSON.readTree(response.body()).get("id").asText();
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
  }

  /** The run the create answered 201 for, or none when the kill came first. */
  private static Set<String> acknowledged(CompletableFuture<String> create) {
    Set<String> ids = ConcurrentHashMap.newKeySet();
    try {
      ids.add(create.get(10, java.util.concurrent.TimeUnit.SECONDS));
    } catch (Exception e) {
      // not acknowledged: it may or may not exist after the restart
    }
    return ids;
  }

  private void awaitSims(String runId, Predicate<JsonNode> condition) {
    await()
        .atMost(RUN_WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              for (JsonNode sim : get("/api/runs/" + runId).get("sims")) {
                if (condition.test(sim)) {
                  return true;
                }
              }
              return false;
            });
  }

  private JsonNode get(String path) throws Exception {
    return JSON.readTree(text(path));
  }

  private String text(String path) throws Exception {
    var response =
        http.send(
            HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build(),
            BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(path + " answered " + response.statusCode());
    }
    return response.body();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
