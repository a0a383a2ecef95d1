package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RunApiIT {

  @TempDir Path dataDir;
  private ApiServer server;

  @BeforeEach
  void start() throws IOException {
    server = ApiServer.start(dataDir);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createRun_answers201WithTheRunItsLocationAndPendingSims() {
    Response created =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 2},"
                + " {\"gpu_config\": \"SM90_H200\", \"count\": 1}]}");

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    JsonNode run = created.json();
    String id = run.get("id").asText();
    assertThat(id).startsWith("r_");
    assertThat(created.headers().firstValue("Location")).hasValue("/api/runs/" + id);
    assertThat(run.get("trace_id").asText()).isEqualTo("demo");
    assertThat(run.get("state").asText()).isEqualTo("active");
    assertThat(run.get("created_at").asText()).isNotBlank();
    assertThat(run.get("entries").toString())
        .isEqualTo(
            "[{\"gpu_config\":\"SM90_H100\",\"count\":2,\"kernels\":null,\"time_limit\":null},"
                + "{\"gpu_config\":\"SM90_H200\",\"count\":1,\"kernels\":null,\"time_limit\":null}]");
    assertThat(run.get("owner").asText()).isEqualTo("local");
    assertThat(run.get("priority").asInt()).isZero();
    assertThat(run.get("sims")).hasSize(3);
    JsonNode sim = run.get("sims").get(0);
    assertThat(sim.get("id").asText()).startsWith("s_");
    assertThat(sim.get("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(sim.get("replica").asInt()).isZero();
    assertThat(sim.get("state").asText()).isIn("pending", "launching", "running");
    assertThat(sim.get("kernels_total").asInt()).isEqualTo(3);
    assertThat(sim.has("heartbeat_age_s")).isTrue();
    assertThat(sim.get("heartbeat_age_s").isNull()).isTrue();
  }

  @Test
  void getRun_showsSimsWithTheirHeartbeatAge() {
    JsonNode run = server.createRun(1);
    String simId = ApiServer.simIds(run).getFirst();
    String runId = run.get("id").asText();
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 1);

    assertThat(server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}").status())
        .isEqualTo(200);
    JsonNode read = server.get("/api/runs/" + runId).json();

    JsonNode sim = read.get("sims").get(0);
    assertThat(sim.get("state").asText()).isEqualTo("running");
    assertThat(sim.get("last_heartbeat_at").asText()).isNotBlank();
    assertThat(sim.get("heartbeat_age_s").isNumber()).isTrue();
    assertThat(sim.get("heartbeat_age_s").asDouble()).isBetween(0.0, 20.0);
  }

  @Test
  void listRuns_showsEveryRunWithSimCountsByState() {
    String first = server.createRun(1).get("id").asText();
    String second = server.createRun(2).get("id").asText();

    JsonNode runs = server.get("/api/runs").json().get("runs");

    assertThat(runs).extracting(run -> run.get("id").asText()).containsExactly(second, first);
    JsonNode newest = runs.get(0);
    assertThat(newest.get("sim_count").asInt()).isEqualTo(2);
    assertThat(newest.has("sims")).isFalse();
    int counted = 0;
    for (JsonNode count : newest.get("sims_by_state")) {
      counted += count.asInt();
    }
    assertThat(counted).isEqualTo(2);
  }

  @Test
  void cancel_cancelsEverySimAndIsHarmlessTwice() {
    JsonNode run = server.createRun(2);
    String runId = run.get("id").asText();

    Response cancelled = server.post("/api/runs/" + runId + "/cancel", "");
    Response again = server.post("/api/runs/" + runId + "/cancel", "");

    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.json().get("state").asText()).isEqualTo("cancelled");
    assertThat(cancelled.json().get("sims"))
        .allSatisfy(sim -> assertThat(sim.get("state").asText()).isEqualTo("cancelled"));
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("state").asText()).isEqualTo("cancelled");
  }

  @Test
  void createRun_namesTheFieldOfEachMistake() {
    assertRefused(
        "{\"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}", 422, "trace_id");
    assertRefused("{\"trace_id\": 7, \"entries\": []}", 422, "trace_id");
    assertRefused("{\"trace_id\": \"demo\"}", 422, "entries");
    assertRefused("{\"trace_id\": \"demo\", \"entries\": {}}", 422, "entries");
    assertRefused("{\"trace_id\": \"demo\", \"entries\": []}", 422, "entries");
    assertRefused("{\"trace_id\": \"demo\", \"entries\": [3]}", 422, "entries[0]");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1},"
            + " {\"gpu_config\": \"SM90_H200\", \"count\": \"4\"}]}",
        422,
        "entries[1].count");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 65}]}",
        422,
        "entries[0].count");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 0}]}",
        422,
        "entries[0].count");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1.5}]}",
        422,
        "entries[0].count");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\":"
            + " 99999999999999999999999}]}",
        422,
        "entries[0].count");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"count\": 1}]}", 422, "entries[0].gpu_config");
    assertRefused(
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"NO_SUCH_GPU\", \"count\": 1}]}",
        422,
        "entries[0].gpu_config");
    assertRefused(
        "{\"trace_id\": \"nope\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}",
        404,
        "trace_id");
    assertRefused(
        "{\"trace_id\": \"sample\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}",
        409,
        "trace_id");
  }

  @Test
  void createRun_ignoresFieldsItDoesNotKnow() {
    Response created =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"colour\": 3, \"entries\": [{\"gpu_config\": \"SM90_H100\","
                + " \"count\": 1, \"note\": \"x\"}]}");

    assertThat(created.status()).isEqualTo(201);
  }

  @Test
  void createRun_keepsTheOwnerThePriorityAndEachEntrysTimeLimit() {
    Response created =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"demo\", \"owner\": \"bob\", \"priority\": 7, \"entries\":"
                + " [{\"gpu_config\": \"SM90_H100\", \"count\": 1, \"time_limit\": \"90m\"},"
                + " {\"gpu_config\": \"SM90_H200\", \"count\": 1, \"time_limit\": 90}]}");

    assertThat(created.status()).isEqualTo(201);
    JsonNode read = server.get("/api/runs/" + created.json().get("id").asText()).json();
    assertThat(read.get("owner").asText()).isEqualTo("bob");
    assertThat(read.get("priority").asInt()).isEqualTo(7);
    assertThat(read.get("entries"))
        .extracting(entry -> entry.get("time_limit").asText())
        .containsExactly("1h30m", "1m30s");
    assertThat(read.get("sims"))
        .allSatisfy(
            sim -> {
              assertThat(sim.has("queue_position")).isTrue();
              assertThat(sim.has("eta")).isTrue();
              assertThat(sim.has("eta_s")).isTrue();
              assertThat(sim.has("eta_basis")).isTrue();
            });
  }

  @Test
  void createRun_refusesABadTimeLimitOwnerOrPriorityNamingFieldAndValue() {
    String entry =
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1";
    assertRefused(entry + ", \"time_limit\": \"soon\"}]}", 422, "entries[0].time_limit");
    assertThat(
            server
                .post("/api/runs", entry + ", \"time_limit\": \"soon\"}]}")
                .json()
                .get("error")
                .get("message")
                .asText())
        .contains("\"soon\"")
        .contains("30m");
    assertRefused(entry + ", \"time_limit\": 0}]}", 422, "entries[0].time_limit");
    assertRefused(entry + ", \"time_limit\": \"31d\"}]}", 422, "entries[0].time_limit");
    assertRefused(entry + ", \"time_limit\": true}]}", 422, "entries[0].time_limit");
    assertRefused(entry + ", \"time_limit\": 1.5}]}", 422, "entries[0].time_limit");
    assertRefused(entry + "}], \"owner\": \"no spaces please\"}", 422, "owner");
    assertRefused(entry + "}], \"owner\": 5}", 422, "owner");
    assertRefused(entry + "}], \"priority\": 5000}", 422, "priority");
    assertRefused(entry + "}], \"priority\": \"high\"}", 422, "priority");
  }

  @Test
  void traces_listWithoutKernelsAndShowOneWithThem() {
    JsonNode list = server.get("/api/traces").json().get("traces");
    JsonNode demo = server.get("/api/traces/demo").json();

    assertThat(list).extracting(t -> t.get("id").asText()).contains("demo", "sample");
    JsonNode listed =
        list.findParents("id").stream()
            .filter(t -> t.get("id").asText().equals("demo"))
            .findFirst()
            .orElseThrow();
    assertThat(listed.has("kernels")).isFalse();
    assertThat(listed.get("kernel_count").asInt()).isEqualTo(3);
    assertThat(demo.get("state").asText()).isEqualTo("ready");
    assertThat(demo.get("trace_gpu_arch").asText()).isEqualTo("sm_90");
    assertThat(demo.get("sample").asBoolean()).isFalse();
    assertThat(demo.get("kernels")).hasSize(3);
    assertThat(demo.get("kernels").get(0).get("name").asText()).isEqualTo("kernel_1");
    for (String field :
        new String[] {
          "reason",
          "suggested_sim_config",
          "model_name",
          "traced_layers",
          "size_bytes",
          "created_at",
          "updated_at"
        }) {
      assertThat(demo.has(field)).as(field).isTrue();
    }
    assertThat(server.get("/api/traces/sample").json().get("sample").asBoolean()).isTrue();
  }

  @Test
  void traces_refuseUnknownAndInvalidIds() {
    Response unknown = server.get("/api/traces/nope");
    Response invalid = server.get("/api/traces/..");
    Response encoded = server.get("/api/traces/..%2F..%2Fetc");
    Response badCharacter = server.get("/api/traces/no%20spaces");
    Response badRunTrace =
        server.post(
            "/api/runs",
            "{\"trace_id\": \"no spaces\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}]}");

    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("not_found");
    // One error for a value that is not a trace id, whether in the path or in a body.
    assertThat(invalid.status()).isEqualTo(422);
    assertThat(invalid.errorCode()).isEqualTo("invalid");
    assertThat(encoded.status()).isEqualTo(422);
    assertThat(encoded.errorCode()).isEqualTo("invalid");
    assertThat(badCharacter.status()).isEqualTo(422);
    assertThat(badCharacter.errorCode()).isEqualTo("invalid");
    assertThat(badRunTrace.status()).isEqualTo(422);
    assertThat(badRunTrace.body()).isEqualTo(badCharacter.body());
  }

  @Test
  void gpuConfigs_listNameArchClockSmsAndUsability() {
    JsonNode configs = server.get("/api/gpu-configs").json().get("gpu_configs");

    JsonNode h100 =
        configs.findParents("name").stream()
            .filter(c -> c.get("name").asText().equals("SM90_H100"))
            .findFirst()
            .orElseThrow();
    assertThat(h100.get("arch").asText()).isEqualTo("sm_90");
    assertThat(h100.get("clock_mhz").asDouble()).isPositive();
    assertThat(h100.get("sms").asInt()).isPositive();
    assertThat(h100.get("usable").asBoolean()).isTrue();
    assertThat(h100.has("reason")).isTrue();
    assertThat(h100.get("warnings").isArray()).isTrue();
  }

  @Test
  void createRun_refusesAContextTheTraceHasNot_namingTheValueAndItsContexts() {
    String entry =
        "{\"trace_id\": \"demo\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1";
    Response unknown =
        server.post("/api/runs", entry + ", \"context\": \"kernelslist_ctx_0x9\"}]}");

    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.errorField()).isEqualTo("entries[0].context");
    assertThat(unknown.json().get("error").get("message").asText())
        .contains("\"kernelslist_ctx_0x9\"", "its contexts: kernelslist");
    assertRefused(entry + ", \"context\": \"../etc\"}]}", 422, "entries[0].context");
    assertRefused(entry + ", \"context\": 2}]}", 422, "entries[0].context");
    // The first context by name is the default.
    Response first = server.post("/api/runs", entry + ", \"context\": \"kernelslist\"}]}");
    assertThat(first.status()).isEqualTo(201);
    assertThat(first.json().get("entries").get(0).get("context").asText()).isEqualTo("kernelslist");
  }

  @Test
  void getRun_answers404NamingTheRun() {
    Response missing = server.get("/api/runs/r_nope");

    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.errorCode()).isEqualTo("not_found");
    assertThat(missing.json().get("error").get("message").asText()).contains("r_nope");
  }

  private void assertRefused(String body, int status, String field) {
    Response response = server.post("/api/runs", body);
    assertThat(response.status()).as(body).isEqualTo(status);
    assertThat(response.errorField()).as(body).isEqualTo(field);
  }
}
