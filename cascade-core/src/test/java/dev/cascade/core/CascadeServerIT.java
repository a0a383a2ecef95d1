package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs through a real server: sims are small shell scripts, started by the local launcher,
 * that speak the sim contract with {@code curl} (DESIGN.md section 7) the way any simulator would.
 */
final class CascadeServerIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A sim: heartbeats running, sends a tiny Accel-Sim log as two chunks, second first and the first
   * twice, then reports succeeded. In "wait" mode it heartbeats until told to cancel.
   */
  private static final String SIM_SCRIPT =
      """
      #!/bin/sh
      set -eu
      read -r CASCADE_SIM_TOKEN
      AUTH="Authorization: Bearer $CASCADE_SIM_TOKEN"
      BASE="$CASCADE_MAIN_URL/api/sims/$CASCADE_SIM_ID"
      beat() {
        curl -sS -f -X POST -H "$AUTH" -H 'Content-Type: application/json' --data "$1" "$BASE/heartbeat"
      }
      if [ "$(cat "$SIM_MODE_FILE")" = wait ]; then
        while true; do
          case "$(beat '{"state": "running", "chunks": 0}')" in
            *'"cancel":true'*) exit 0 ;;
          esac
          sleep 0.1
        done
      fi
      beat '{"state": "running", "chunks": 0}' > /dev/null
      C1=$((1000 + 10 * CASCADE_REPLICA))
      K2=500
      [ "$CASCADE_GPU_CONFIG" = SM90_H200 ] && K2=400
      C2=$((C1 + K2))
      LOG="$PWD/sim-$CASCADE_SIM_ID.log"
      cat > "$LOG" <<EOF
      Accel-Sim [build accelsim-commit-test]
      *** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-test] ***
      GPGPU-Sim uArch: performance model initialization complete.
      launching kernel name: kernel_1 uid: 1
      kernel_name = kernel_1\\x20
      kernel_launch_uid = 1\\x20
      gpu_sim_cycle = $C1
      gpu_sim_insn = 4000
      gpu_ipc =       2.0000
      gpu_tot_sim_cycle = $C1
      gpu_tot_sim_insn = 4000
      gpu_tot_ipc =       2.0000
      gpgpu_simulation_time = 0 days, 0 hrs, 0 min, 1 sec (1 sec)
      gpgpu_simulation_rate = 4000 (inst/sec)
      gpgpu_simulation_rate = 1000 (cycle/sec)
      gpgpu_silicon_slowdown = 1000000x
      launching kernel name: kernel_2 uid: 2
      kernel_name = kernel_2\\x20
      kernel_launch_uid = 2\\x20
      gpu_sim_cycle = $K2
      gpu_sim_insn = 1000
      gpu_ipc =       2.0000
      gpu_tot_sim_cycle = $C2
      gpu_tot_sim_insn = 5000
      gpu_tot_ipc =       3.0000
      gpgpu_simulation_time = 0 days, 0 hrs, 0 min, 1 sec (1 sec)
      gpgpu_simulation_rate = 5000 (inst/sec)
      gpgpu_simulation_rate = 1500 (cycle/sec)
      gpgpu_silicon_slowdown = 1000000x
      GPGPU-Sim: *** simulation thread exiting ***
      GPGPU-Sim: *** exit detected ***
      EOF
      head -c 100 "$LOG" > "$LOG.0"
      tail -c +101 "$LOG" > "$LOG.1"
      curl -sS -f -X PUT -H "$AUTH" --data-binary @"$LOG.1" "$BASE/chunks/1" > /dev/null
      curl -sS -f -X PUT -H "$AUTH" --data-binary @"$LOG.0" "$BASE/chunks/0" > /dev/null
      curl -sS -f -X PUT -H "$AUTH" --data-binary @"$LOG.0" "$BASE/chunks/0" > /dev/null
      beat '{"state": "succeeded", "exit_code": 0, "chunks": 2}' > /dev/null
      """;

  @TempDir Path dir;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(2));
  private Path dataDir;
  private Path modeFile;
  private Cascade cascade;
  private CascadeServer server;

  @BeforeEach
  void start() throws IOException {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(),
        () -> "the local launcher cannot run here: " + launcher.unavailableReason().orElse(""));
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/curl")),
        "the sims of this test need curl at /usr/bin/curl (apt-get install -y curl)");
    dataDir = dir.resolve("data");
    modeFile = dir.resolve("mode");
    Files.writeString(modeFile, "finish");
    Path script = dir.resolve("sim.sh");
    Files.writeString(script, SIM_SCRIPT.replace("\\x20", " "));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    TestTraces.writeReady(dataDir, "demo", 2);
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .finishedStopDelay(Duration.ofSeconds(5))
            .simCommand(List.of("sh", script.toString()))
            .simEnvironment(Map.of("SIM_MODE_FILE", modeFile.toString()))
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    server = cascade.server().orElseThrow();
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade
                    .traces()
                    .find("demo")
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));
  }

  @AfterEach
  void stop() {
    if (cascade == null) {
      return;
    }
    try {
      for (Run run : cascade.runs().list()) {
        for (Sim sim : run.sims()) {
          if (sim.launcherRef() != null) {
            launcher.stop(sim.launcherRef());
          }
        }
      }
    } finally {
      server.close();
      cascade.close();
    }
  }

  @Test
  void fullRun_simsSpeakingTheContractWithCurlSucceedAndTheirOutputIsServed() throws Exception {
    JsonNode created =
        post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 2},"
                + " {\"gpu_config\": \"SM90_H200\", \"count\": 1}]}",
            201);
    String runId = created.get("id").asText();
    List<String> eventStates = new CopyOnWriteArrayList<>();
    List<Long> eventIds = new CopyOnWriteArrayList<>();
    List<String> eventKinds = new CopyOnWriteArrayList<>();
    Thread follower = follow(runId, eventIds, eventKinds, eventStates);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(get("/api/runs/" + runId).get("state").asText()).isEqualTo("succeeded"));

    JsonNode run = get("/api/runs/" + runId);
    assertThat(run.get("sims")).hasSize(3);
    for (JsonNode sim : run.get("sims")) {
      assertThat(sim.get("state").asText()).isEqualTo("succeeded");
      assertThat(sim.get("exit_code").asInt()).isZero();
      assertThat(sim.get("launcher").asText()).isEqualTo("local");
    }
    String simId = run.get("sims").get(1).get("id").asText();
    String log = getText("/api/sims/" + simId + "/log");
    assertThat(log)
        .startsWith("Accel-Sim [build accelsim-commit-test]\n")
        .contains("gpu_tot_sim_cycle = 1010\n")
        .endsWith("GPGPU-Sim: *** exit detected ***\n");
    assertThat(getText("/api/sims/" + simId + "/log?tail=1"))
        .isEqualTo("GPGPU-Sim: *** exit detected ***\n");
    JsonNode kernels = get("/api/sims/" + simId + "/kernels");
    assertThat(kernels.get("sim_id").asText()).isEqualTo(simId);
    assertThat(kernels.get("clock_mhz").asDouble()).isEqualTo(1980.0);
    assertThat(kernels.get("kernels"))
        .extracting(k -> k.get("name").asText(), k -> k.get("cycles").asLong())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("kernel_1", 1010L),
            org.assertj.core.groups.Tuple.tuple("kernel_2", 500L));
    assertThat(kernels.get("kernels").get(0).get("stats").get("gpu_tot_sim_insn").asLong())
        .isEqualTo(4000);
    JsonNode results = get("/api/runs/" + runId + "/results");
    assertThat(results.get("configs"))
        .extracting(c -> c.get("gpu_config").asText(), c -> c.get("replicas").asInt())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("SM90_H100", 2),
            org.assertj.core.groups.Tuple.tuple("SM90_H200", 1));
    JsonNode h100 = results.get("configs").get(0);
    assertThat(h100.get("succeeded").asInt()).isEqualTo(2);
    JsonNode kernel1 = h100.get("kernels").get(0);
    assertThat(kernel1.get("name").asText()).isEqualTo("kernel_1");
    assertThat(kernel1.get("cycles").get("mean").asDouble()).isEqualTo(1005.0);
    assertThat(kernel1.get("cycles").get("min").asDouble()).isEqualTo(1000.0);
    assertThat(kernel1.get("cycles").get("max").asDouble()).isEqualTo(1010.0);
    assertThat(h100.get("total").get("cycles").get("mean").asDouble()).isEqualTo(1505.0);
    // Against the baseline H100 (the first entry), the H200's kernel_1 (1000 cycles, inside the
    // H100's 1000..1010) is the same within spread; its kernel_2 (400 against 500, 500) is faster.
    assertThat(results.get("baseline").asText()).isEqualTo("SM90_H100");
    JsonNode h200 = results.get("configs").get(1);
    assertThat(h200.get("kernels").get(0).get("speedup").get("cycles").get("verdict").asText())
        .isEqualTo("same_within_spread");
    JsonNode faster = h200.get("kernels").get(1).get("speedup");
    assertThat(faster.get("cycles").get("ratio").asDouble()).isEqualTo(1.25);
    assertThat(faster.get("cycles").get("verdict").asText()).isEqualTo("faster");
    assertThat(faster.get("simulated_time").get("verdict").asText()).isEqualTo("faster");
    JsonNode againstH200 = get("/api/runs/" + runId + "/results?baseline=SM90_H200");
    assertThat(againstH200.get("baseline").asText()).isEqualTo("SM90_H200");
    assertThat(
            againstH200
                .get("configs")
                .get(0)
                .get("kernels")
                .get(1)
                .get("speedup")
                .get("cycles")
                .get("verdict")
                .asText())
        .isEqualTo("slower");
    HttpResponse<String> unknownBaseline =
        http.send(
            HttpRequest.newBuilder(uri("/api/runs/" + runId + "/results.csv?baseline=SM70_V100"))
                .GET()
                .build(),
            BodyHandlers.ofString());
    assertThat(unknownBaseline.statusCode()).isEqualTo(422);
    assertThat(unknownBaseline.body())
        .contains("baseline \\\"SM70_V100\\\" is not a GPU config of this run");
    assertThat(getText("/api/runs/" + runId + "/results.csv"))
        .startsWith("gpu_config,arch,")
        .contains("SM90_H100,sm_90,1980,2,2,kernel,kernel_1,kernel_1,0,2,1005,")
        .contains("SM90_H200,sm_90,1980,1,1,total,,,,1,1400,")
        .contains(",SM90_H100,1.25,faster,1.25,faster\r\n");

    // The GPU's own numbers for the trace, as ncu --csv --page raw writes them.
    String ncu =
        "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\",\"gpu__time_duration.sum\"\n"
            + "\"\",\"\",\"cycle\",\"nsecond\"\n"
            + "\"0\",\"kernel_1()\",\"1,000\",\"600\"\n"
            + "\"1\",\"kernel_2()\",\"400\",\"250\"\n";
    HttpResponse<String> stored = put("/api/traces/demo/hardware?name=h100.csv", ncu);
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(JSON.readTree(stored.body()).get("kernels").asInt()).isEqualTo(2);
    HttpResponse<String> refused = put("/api/traces/demo/hardware", ncu.replace("400", "n/a"));
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body()).contains("ncu.csv:4: ").contains("n/a");
    assertThat(put("/api/traces/nope/hardware", ncu).statusCode()).isEqualTo(404);
    JsonNode correlation = get("/api/runs/" + runId + "/correlation");
    assertThat(correlation.get("source").asText()).isEqualTo("h100.csv");
    JsonNode h100Hw = correlation.get("configs").get(0);
    assertThat(h100Hw.get("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(h100Hw.get("kernels").get(0).get("measured_cycles").asDouble()).isEqualTo(1000.0);
    assertThat(h100Hw.get("kernels").get(0).get("simulated_cycles").asDouble()).isEqualTo(1005.0);
    assertThat(h100Hw.get("kernels").get(1).get("cycles_error_pct").asDouble()).isEqualTo(25.0);
    assertThat(h100Hw.get("kernels").get(0).get("measured_time_us").asDouble()).isEqualTo(0.6);
    // Errors 0.5% and 25%: their mean, and 105 / 1400 in aggregate.
    assertThat(h100Hw.get("cycles").get("mean_abs_error_pct").asDouble())
        .isCloseTo(12.75, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(h100Hw.get("cycles").get("aggregate_error_pct").asDouble())
        .isCloseTo(105.0 / 1400 * 100, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(h100Hw.get("cycles").get("correlation").asDouble())
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(correlation.get("configs")).hasSize(2);

    await()
        .atMost(WAIT)
        .untilAsserted(
            // Three sims succeeded; a sim's peak memory stored after its end repeats its state.
            () ->
                assertThat(eventStates.stream().filter(s -> s.endsWith(" succeeded")).distinct())
                    .hasSize(3));
    assertThat(eventIds).isSorted().doesNotHaveDuplicates();
    assertThat(eventKinds).contains("sim", "kernel", "log");
    follower.interrupt();

    String metrics = getText("/metrics");
    assertThat(metrics)
        .contains("cascade_sims{state=\"succeeded\"} 3")
        .contains("cascade_heartbeats_total{state=\"succeeded\"} 3")
        .contains("cascade_chunks_received_total 9")
        .contains("cascade_chunks_duplicate_total 3")
        .contains("cascade_sim_launch_latency_seconds_count 3");
  }

  @Test
  void cancel_reachesARunningSimThroughItsNextHeartbeat() throws Exception {
    Files.writeString(modeFile, "wait");
    JsonNode created =
        post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}",
            201);
    String runId = created.get("id").asText();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(get("/api/runs/" + runId).get("sims").get(0).get("state").asText())
                    .isEqualTo("running"));
    String ref = get("/api/runs/" + runId).get("sims").get(0).get("launcher_ref").asText();

    JsonNode cancelled = post("/api/runs/" + runId + "/cancel", "", 200);

    assertThat(cancelled.get("state").asText()).isEqualTo("cancelled");
    // The sim exits by itself once a heartbeat answers cancel: true (or is stopped).
    ProcessHandle handle = ProcessHandle.of(Long.parseLong(ref)).orElse(null);
    if (handle != null) {
      await().atMost(WAIT).until(() -> !handle.isAlive());
    }
    assertThat(get("/api/runs/" + runId).get("sims").get(0).get("state").asText())
        .isEqualTo("cancelled");
  }

  private Thread follow(String runId, List<Long> ids, List<String> kinds, List<String> states)
      throws Exception {
    HttpResponse<Stream<String>> response =
        http.send(
            HttpRequest.newBuilder(uri("/api/runs/" + runId + "/events")).GET().build(),
            BodyHandlers.ofLines());
    assertThat(response.statusCode()).isEqualTo(200);
    return Thread.ofVirtual()
        .start(
            () -> {
              try (Stream<String> lines = response.body()) {
                Iterator<String> it = lines.iterator();
                while (!Thread.currentThread().isInterrupted() && it.hasNext()) {
                  String line = it.next();
                  if (line.startsWith("id: ")) {
                    ids.add(Long.parseLong(line.substring(4)));
                  } else if (line.startsWith("data: ")) {
                    JsonNode data = JSON.readTree(line.substring(6));
                    kinds.add(data.get("kind").asText());
                    if (data.get("kind").asText().equals("sim")) {
                      states.add(
                          data.get("data").path("id").asText()
                              + " "
                              + data.get("data").get("state").asText());
                    }
                  }
                }
              } catch (IOException | RuntimeException e) {
                // The stream ends with the test.
              }
            });
  }

  private URI uri(String path) {
    return URI.create(server.url() + path);
  }

  private JsonNode get(String path) throws Exception {
    return JSON.readTree(getText(path));
  }

  private String getText(String path) throws Exception {
    HttpResponse<String> response =
        http.send(HttpRequest.newBuilder(uri(path)).GET().build(), BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  private HttpResponse<String> put(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path))
            .PUT(BodyPublishers.ofString(body))
            .header("Content-Type", "text/csv")
            .build(),
        BodyHandlers.ofString());
  }

  private JsonNode post(String path, String body, int status) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri(path))
                .POST(BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .build(),
            BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }
}
