package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.agent.SimContract;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SimEndpointsIT {

  @TempDir Path dataDir;
  private ApiServer server;
  private String runId;
  private String simId;

  @BeforeEach
  void startWithALaunchedSim() throws IOException {
    server = ApiServer.start(dataDir, settings -> settings.withMaxChunkBytes(64 * 1024));
    JsonNode run = server.createRun(2);
    runId = run.get("id").asText();
    simId = ApiServer.simIds(run).getFirst();
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 2);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String stateOf(String sim) {
    for (JsonNode node : server.get("/api/runs/" + runId).json().get("sims")) {
      if (node.get("id").asText().equals(sim)) {
        return node.get("state").asText();
      }
    }
    throw new AssertionError("no sim " + sim);
  }

  @Test
  void heartbeat_runningMovesTheSimAndAnswersCancelFalse() {
    Response reply = server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().toString()).isEqualTo("{\"cancel\":false}");
    assertThat(stateOf(simId)).isEqualTo("running");
  }

  private JsonNode simNode(String sim) {
    for (JsonNode node : server.get("/api/runs/" + runId).json().get("sims")) {
      if (node.get("id").asText().equals(sim)) {
        return node;
      }
    }
    throw new AssertionError("no sim " + sim);
  }

  @Test
  void heartbeat_peakMemory_isStoredWhenItGrows_neverLowered() {
    server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");
    assertThat(simNode(simId).get("peak_memory_bytes").isNull()).isTrue();

    server.heartbeat(
        simId, "{\"state\": \"running\", \"chunks\": 0, \"peak_memory_bytes\": 104857600}");
    assertThat(simNode(simId).get("peak_memory_bytes").asLong()).isEqualTo(104857600L);
    // A lower figure (a sample after the simulator freed memory) leaves the peak as it was.
    server.heartbeat(
        simId, "{\"state\": \"running\", \"chunks\": 0, \"peak_memory_bytes\": 52428800}");
    assertThat(simNode(simId).get("peak_memory_bytes").asLong()).isEqualTo(104857600L);
    server.heartbeat(
        simId, "{\"state\": \"running\", \"chunks\": 0, \"peak_memory_bytes\": 209715200}");
    assertThat(simNode(simId).get("peak_memory_bytes").asLong()).isEqualTo(209715200L);

    Response negative =
        server.heartbeat(
            simId, "{\"state\": \"running\", \"chunks\": 0, \"peak_memory_bytes\": -1}");
    assertThat(negative.status()).isEqualTo(422);
    assertThat(negative.body()).contains("peak_memory_bytes");
  }

  @Test
  void chunk_isIdempotent() {
    Response first = server.chunk(simId, 0, "line one\n");
    Response again = server.chunk(simId, 0, "line one\n");

    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json().get("stored").asBoolean()).isTrue();
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("stored").asBoolean()).isFalse();
    assertThat(server.get("/api/sims/" + simId + "/log").body()).isEqualTo("line one\n");
  }

  @Test
  void finalHeartbeat_waitsForMissingChunksThenApplies() {
    server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");
    server.chunk(simId, 0, "zero\n");
    server.chunk(simId, 2, "two\n");

    Response early =
        server.heartbeat(simId, "{\"state\": \"succeeded\", \"exit_code\": 0, \"chunks\": 4}");

    assertThat(early.status()).isEqualTo(200);
    assertThat(early.json().get("cancel").asBoolean()).isFalse();
    assertThat(early.json().get("missing")).extracting(JsonNode::asLong).containsExactly(1L, 3L);
    assertThat(stateOf(simId)).isEqualTo("running");

    server.chunk(simId, 3, "three\n");
    server.chunk(simId, 1, "one\n");
    Response done =
        server.heartbeat(simId, "{\"state\": \"succeeded\", \"exit_code\": 0, \"chunks\": 4}");

    assertThat(done.json().toString()).isEqualTo("{\"cancel\":false}");
    assertThat(stateOf(simId)).isEqualTo("succeeded");
    assertThat(server.get("/api/sims/" + simId + "/log").body())
        .isEqualTo("zero\none\ntwo\nthree\n");
  }

  @Test
  void failedHeartbeat_keepsTheErrorAndExitCode() {
    server.heartbeat(
        simId, "{\"state\": \"failed\", \"error\": \"out of memory\", \"exit_code\": 3}");

    JsonNode sim = server.get("/api/runs/" + runId).json().get("sims").get(0);
    assertThat(sim.get("state").asText()).isEqualTo("failed");
    assertThat(sim.get("error").asText()).isEqualTo("out of memory");
    assertThat(sim.get("exit_code").asInt()).isEqualTo(3);
  }

  @Test
  void heartbeat_answersCancelTrueAfterACancel() {
    server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");
    server.post("/api/runs/" + runId + "/cancel", "");

    Response reply = server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");

    assertThat(reply.json().get("cancel").asBoolean()).isTrue();
    assertThat(stateOf(simId)).isEqualTo("cancelled");
  }

  @Test
  void heartbeat_refusesAnotherSimsToken() {
    String other = ApiServer.simIds(server.get("/api/runs/" + runId).json()).get(1);

    Response reply =
        server.post(
            "/api/sims/" + other + "/heartbeat",
            "{\"state\": \"running\"}",
            "Authorization",
            "Bearer " + server.simToken(simId));
    Response chunk =
        server.put(
            "/api/sims/" + other + "/chunks/0",
            new byte[] {'x'},
            "Authorization",
            "Bearer " + server.simToken(simId));

    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.errorCode()).isEqualTo("forbidden");
    assertThat(chunk.status()).isEqualTo(403);
    assertThat(stateOf(other)).isNotEqualTo("running");
  }

  @Test
  void simEndpoints_needATokenAndNameTheHeader() {
    Response none = server.post("/api/sims/" + simId + "/heartbeat", "{\"state\": \"running\"}");
    Response basic =
        server.post(
            "/api/sims/" + simId + "/heartbeat",
            "{\"state\": \"running\"}",
            "Authorization",
            "Basic dXNlcjpwYXNz");
    Response chunk = server.put("/api/sims/" + simId + "/chunks/0", new byte[] {'x'});

    assertThat(none.status()).isEqualTo(401);
    assertThat(none.errorField()).isEqualTo("Authorization");
    assertThat(none.headers().firstValue("WWW-Authenticate")).isPresent();
    assertThat(basic.status()).isEqualTo(401);
    assertThat(chunk.status()).isEqualTo(401);
  }

  @Test
  void heartbeat_namesTheFieldOfEachMistake() {
    assertRefused("{\"state\": \"lost\"}", 422, "state");
    assertRefused("{\"state\": 1}", 422, "state");
    assertRefused("{}", 422, "state");
    assertRefused("{\"state\": \"running\", \"chunks\": -1}", 422, "chunks");
    assertRefused("{\"state\": \"running\", \"chunks\": \"3\"}", 422, "chunks");
    assertRefused("{\"state\": \"failed\", \"exit_code\": 1.5}", 422, "exit_code");
    assertRefused("{\"state\": \"failed\", \"error\": 5}", 422, "error");
    assertRefused("{\"state\": \"running\"", 400, null);
    assertRefused("[]", 422, null);
    assertThat(stateOf(simId)).isNotIn("failed", "succeeded");
  }

  @Test
  void chunk_refusesABadSeqAndATooLargeBody() {
    Response negative =
        server.put("/api/sims/" + simId + "/chunks/-1", new byte[1], server.simAuth(simId));
    Response word =
        server.put("/api/sims/" + simId + "/chunks/abc", new byte[1], server.simAuth(simId));
    Response huge =
        server.put(
            "/api/sims/" + simId + "/chunks/0", new byte[64 * 1024 + 1], server.simAuth(simId));
    Response limit =
        server.put("/api/sims/" + simId + "/chunks/1", new byte[64 * 1024], server.simAuth(simId));

    assertThat(negative.status()).isEqualTo(422);
    assertThat(negative.errorField()).isEqualTo("seq");
    assertThat(word.status()).isEqualTo(422);
    assertThat(huge.status()).isEqualTo(413);
    assertThat(huge.errorCode()).isEqualTo("payload_too_large");
    assertThat(limit.status()).isEqualTo(200);
  }

  @Test
  void chunk_withTheAgentsReadAtStamp_timesTheKernelItFinishes() {
    String block =
        "launching kernel name: kernel_1 uid: 1\nkernel_name = kernel_1 \nkernel_launch_uid = 1 \n"
            + "gpu_sim_cycle = 100\ngpu_sim_insn = 400\ngpu_tot_sim_cycle = 100\n"
            + "gpu_tot_sim_insn = 400\ngpgpu_simulation_rate = 4000 (inst/sec)\n"
            + "gpgpu_silicon_slowdown = 1000000x\n";
    String readAt = "1796212800123"; // 2026-12-02T12:00:00.123Z

    Response stored =
        server.put(
            "/api/sims/" + simId + "/chunks/0",
            block.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "Authorization",
            "Bearer " + server.simToken(simId),
            SimContract.CHUNK_READ_AT_HEADER,
            readAt);
    Response bad =
        server.put(
            "/api/sims/" + simId + "/chunks/1",
            new byte[] {'x'},
            "Authorization",
            "Bearer " + server.simToken(simId),
            SimContract.CHUNK_READ_AT_HEADER,
            "yesterday");

    assertThat(stored.status()).isEqualTo(200);
    JsonNode kernel = server.get("/api/sims/" + simId + "/kernels").json().get("kernels").get(0);
    assertThat(kernel.get("finished_at").asText()).isEqualTo("2026-12-02T12:00:00.123Z");
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.errorField()).isEqualTo(SimContract.CHUNK_READ_AT_HEADER);
  }

  @Test
  void heartbeat_ofAnUnknownSimIsRefused() {
    Response reply =
        server.post(
            "/api/sims/s_nope/heartbeat",
            "{\"state\": \"running\"}",
            "Authorization",
            "Bearer " + server.simToken("s_nope"));

    // No token was ever issued to a sim that does not exist, so no token can be its.
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.errorCode()).isEqualTo("forbidden");
  }

  @Test
  void kernelsAndResults_answerForASimAndRun() {
    Response kernels = server.get("/api/sims/" + simId + "/kernels");
    Response results = server.get("/api/runs/" + runId + "/results");
    Response csv = server.get("/api/runs/" + runId + "/results.csv");

    assertThat(kernels.status()).isEqualTo(200);
    assertThat(kernels.json().get("sim_id").asText()).isEqualTo(simId);
    assertThat(kernels.json().get("kernels").isArray()).isTrue();
    assertThat(results.status()).isEqualTo(200);
    assertThat(results.json().get("configs")).hasSize(1);
    assertThat(results.json().get("configs").get(0).get("gpu_config").asText())
        .isEqualTo("SM90_H100");
    assertThat(csv.status()).isEqualTo(200);
    assertThat(csv.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
    // The run is still active: a header says the results are partial; the CSV keeps its shape.
    assertThat(csv.headers().firstValue("Cascade-Partial"))
        .hasValueSatisfying(
            partial ->
                assertThat(partial)
                    .startsWith(
                        "partial: 0 of 2 sims finished, 0 of 6 kernels done; still to come:"));
    assertThat(csv.body()).startsWith("gpu_config,");
    assertThat(List.of(csv.body().split("\r\n"))).hasSize(2);
    assertThat(results.json().get("partial").asBoolean()).isTrue();
  }

  @Test
  void log_tailGivesTheLastLines() {
    server.chunk(simId, 0, "a\nb\n");
    server.chunk(simId, 1, "c\nd\n");

    Response tail = server.get("/api/sims/" + simId + "/log?tail=3");
    Response bad = server.get("/api/sims/" + simId + "/log?tail=lots");
    Response unknown = server.get("/api/sims/s_nope/log");

    assertThat(tail.status()).isEqualTo(200);
    assertThat(tail.body()).isEqualTo("b\nc\nd\n");
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.errorField()).isEqualTo("tail");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("not_found");
  }

  @Test
  void chunksAfterTheFinalHeartbeat_areRefusedSoTheLogAndItsKernelsNeverDisagree() {
    server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");
    server.chunk(simId, 0, "zero\n");
    server.heartbeat(simId, "{\"state\": \"succeeded\", \"exit_code\": 0, \"chunks\": 1}");
    String kernelsBefore = server.get("/api/sims/" + simId + "/kernels").body();

    Response late = server.chunk(simId, 1, "kernel_name = _Z4latev\n");
    Response again = server.chunk(simId, 0, "zero\n");

    assertThat(late.status()).isEqualTo(409);
    assertThat(late.errorCode()).isEqualTo("conflict");
    assertThat(late.errorField()).isEqualTo("seq");
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("stored").asBoolean()).isFalse();
    assertThat(server.get("/api/sims/" + simId + "/log").body()).isEqualTo("zero\n");
    assertThat(server.get("/api/sims/" + simId + "/kernels").body()).isEqualTo(kernelsBefore);
    assertThat(stateOf(simId)).isEqualTo("succeeded");
  }

  private void assertRefused(String body, int status, String field) {
    Response response = server.heartbeat(simId, body);
    assertThat(response.status()).as(body).isEqualTo(status);
    assertThat(response.errorField()).as(body).isEqualTo(field);
  }
}
