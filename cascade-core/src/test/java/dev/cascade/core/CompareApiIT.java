package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/compare} through a real server: two runs whose sims print different simulator
 * builds, a run with no results yet, and every kind of bad {@code runs}.
 */
final class CompareApiIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dataDir;
  private TestServer test;
  private String before;
  private String after;
  private String waiting;

  @BeforeEach
  void twoFinishedRunsOnDifferentBuildsAndOneWaiting() throws Exception {
    test = new TestServer(dataDir);
    before = finishedRun("accelsim-commit-aaaa");
    after = finishedRun("accelsim-commit-bbbb");
    waiting = test.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1))).id();
    test.nextLaunch(); // launched, never heard from
  }

  @AfterEach
  void stop() {
    test.close();
  }

  private String finishedRun(String build) throws Exception {
    String id = test.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1))).id();
    SimLaunch sim = test.nextLaunch();
    test.heartbeat(sim, build);
    test.succeed(sim);
    await()
        .atMost(TestServer.WAIT)
        .until(() -> test.engine.runs().get(id).state() == RunState.SUCCEEDED);
    return id;
  }

  private record Answer(int status, JsonNode body) {}

  private Answer get(String query) throws Exception {
    var response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(test.url() + "/api/compare" + query)).build(),
            BodyHandlers.ofString());
    return new Answer(response.statusCode(), JSON.readTree(response.body()));
  }

  private static String runs(String value) {
    return "?runs=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  void compare_twoRunsOnDifferentSimulatorBuilds_saysTheBuildDiffersAndNothingChanged()
      throws Exception {
    Answer answer = get(runs(before + "," + after));

    assertThat(answer.status()).isEqualTo(200);
    JsonNode body = answer.body();
    assertThat(body.path("baseline").asText()).isEqualTo(before);
    assertThat(body.path("runs").findValuesAsText("run_id")).containsExactly(before, after);
    JsonNode config = body.path("changes").get(0).path("configs").get(0);
    assertThat(config.path("gpu_config").asText()).isEqualTo("SM90_H100");
    assertThat(config.path("differs").toString()).isEqualTo("[\"simulator build\"]");
    assertThat(config.path("inputs").get(3).path("baseline").asText())
        .isEqualTo("Accel-Sim accelsim-commit-aaaa, GPGPU-Sim gpgpu-sim_git-commit-test");
    assertThat(config.path("inputs").get(3).path("run").asText())
        .startsWith("Accel-Sim accelsim-commit-bbbb");
    JsonNode kernels = config.path("kernels");
    assertThat(kernels).hasSize(TestServer.KERNELS);
    for (JsonNode kernel : kernels) {
      assertThat(kernel.path("cycles").path("difference").asDouble()).isZero();
      assertThat(kernel.path("cycles").path("direction").asText()).isEqualTo("same_within_spread");
    }
    // The test server's kernels: 1000, 2000 and 3000 cycles on replica 0.
    assertThat(config.path("total").path("cycles").path("baseline").path("mean").asDouble())
        .isEqualTo(6000.0);
  }

  @Test
  void compare_withMeasures_givesEachStatisticsChangePerKernelAndInTotal() throws Exception {
    Answer answer = get(runs(before + "," + after) + "&measures=gpu_tot_sim_insn:change,gpu_ipc");

    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
    JsonNode body = answer.body();
    assertThat(body.path("measures").fieldNames())
        .toIterable()
        .containsExactly(
            "cycles", "ipc", "simulated_time_us", "gpu_tot_sim_insn:change", "gpu_ipc");
    assertThat(body.path("measures").path("gpu_tot_sim_insn:change").asText())
        .contains("running total \"gpu_tot_sim_insn\"");
    JsonNode config = body.path("changes").get(0).path("configs").get(0);
    // The test server's kernel k runs 4000 * k instructions on every build.
    JsonNode second = config.path("kernels").get(1).path("gpu_tot_sim_insn:change");
    assertThat(second.path("baseline").path("mean").asDouble()).isEqualTo(8000.0);
    assertThat(second.path("run").path("mean").asDouble()).isEqualTo(8000.0);
    assertThat(second.path("difference").asDouble()).isZero();
    assertThat(second.path("direction").asText()).isEqualTo("same_within_spread");
    assertThat(second.path("speedup").isNull()).isTrue();
    JsonNode total = config.path("total").path("gpu_tot_sim_insn:change");
    assertThat(total.path("baseline").path("mean").asDouble()).isEqualTo(24000.0);
    assertThat(config.path("total").path("gpu_ipc").path("run").path("mean").asDouble())
        .isEqualTo(2.0);
  }

  @Test
  void compare_withoutMeasures_hasOnlyTheFixedThree() throws Exception {
    JsonNode body = get(runs(before + "," + after)).body();

    assertThat(body.path("measures").fieldNames())
        .toIterable()
        .containsExactly("cycles", "ipc", "simulated_time_us");
    assertThat(body.at("/changes/0/configs/0/kernels/0").fieldNames())
        .toIterable()
        .containsExactly(
            "position",
            "name",
            "readable_name",
            "label",
            "instance",
            "cycles",
            "ipc",
            "simulated_time_us");
  }

  @Test
  void compare_aStatisticNoKernelPrinted_is422NamingMeasures() throws Exception {
    Answer misspelt = get(runs(before + "," + after) + "&measures=gpu_tot_sim_ins:change");
    assertThat(misspelt.status()).as(misspelt.body().toString()).isEqualTo(422);
    assertThat(misspelt.body().at("/error/field").asText()).isEqualTo("measures");
    assertThat(misspelt.body().at("/error/message").asText())
        .contains("no kernel of this run printed a statistic named \"gpu_tot_sim_ins\"")
        .contains("did you mean \"gpu_tot_sim_insn\"");

    Answer badForm = get(runs(before + "," + after) + "&measures=gpu_ipc:median");
    assertThat(badForm.status()).isEqualTo(422);
    assertThat(badForm.body().at("/error/field").asText()).isEqualTo("measures");
  }

  @Test
  void compare_badRuns_isAnErrorNamingTheFieldAndTheValue() throws Exception {
    assertError(get(""), 422, "runs is missing");
    assertError(get(runs(before)), 422, "runs must name 2 to 16 runs, the baseline first; got 1");
    assertError(get(runs(before + ",," + after)), 422, "has an empty run id");
    assertError(get(runs(before + "," + before)), 422, "names run \"" + before + "\" twice");
    assertError(get(runs(before + ",r_nope")), 404, "run \"r_nope\" in runs does not exist");
    assertError(
        get(runs(before + "," + waiting)),
        409,
        "run \"" + waiting + "\" in runs has no results yet");
  }

  private static void assertError(Answer answer, int status, String message) {
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(status);
    assertThat(answer.body().path("error").path("field").asText()).isEqualTo("runs");
    assertThat(answer.body().path("error").path("message").asText()).contains(message);
  }
}
