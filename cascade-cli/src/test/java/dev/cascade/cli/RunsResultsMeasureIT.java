package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.spi.SimLaunch;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A statistic Cascade has no code for, {@code L2_total_cache_miss_rate}, named in a request: the
 * API, the CSV and {@code cascade runs results --measure} show it with its spread, for a run whose
 * three sims each sent the real A100 log (8 kernels) over the sim endpoints.
 */
final class RunsResultsMeasureIT {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Path A100_LOG =
      FIXTURES.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;
  private CliTestServer cascade;
  private String runId;

  @BeforeEach
  void runWhoseSimsSendTheRealLog() throws Exception {
    Assumptions.assumeTrue(
        Files.isRegularFile(A100_LOG),
        "needs the fixtures at " + FIXTURES + " (beside the clone at ../shared/fixtures)");
    cascade = new CliTestServer(dataDir);
    runId =
        cascade
            .engine
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1)))
            .id();
    byte[] log = Files.readAllBytes(A100_LOG);
    for (SimLaunch sim : cascade.nextLaunches(3)) {
      cascade.sendLogAndSucceed(sim, log);
    }
    await()
        .atMost(CliTestServer.WAIT)
        .until(() -> cascade.engine.runs().get(runId).state() == RunState.SUCCEEDED);
  }

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void api_givesTheStatisticsSpreadPerKernelAndForTheTrace() throws Exception {
    HttpResponse<String> response =
        get("/api/runs/" + runId + "/results?measures=L2_total_cache_miss_rate");

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode h100 = JSON.readTree(response.body()).path("configs").get(0);
    assertThat(h100.path("kernels")).hasSize(8);
    assertThat(h100.path("kernels").get(6).path("L2_total_cache_miss_rate").path("mean").asDouble())
        .isEqualTo(0.963);
    JsonNode total = h100.path("total").path("L2_total_cache_miss_rate");
    assertThat(total.path("n").asInt()).isEqualTo(2);
    assertThat(total.path("values").get(0).asDouble()).isEqualTo(0.9286);
    assertThat(total.path("stdev").asDouble()).isZero();
  }

  @Test
  void api_listsTheRunsStatisticsAndRefusesAMisspeltOneNamingTheClosest() throws Exception {
    HttpResponse<String> catalog = get("/api/measures?run=" + runId);
    assertThat(catalog.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(catalog.body()).path("statistics").toString())
        .contains("\"L2_total_cache_miss_rate\"", "\"gpgpu_n_stall_shd_mem\"");

    HttpResponse<String> refused =
        get("/api/runs/" + runId + "/results?measures=L2_total_cache_miss_rat");
    assertThat(refused.statusCode()).isEqualTo(422);
    JsonNode error = JSON.readTree(refused.body()).path("error");
    assertThat(error.path("field").asText()).isEqualTo("measures");
    assertThat(error.path("message").asText())
        .contains("\"L2_total_cache_miss_rat\"")
        .contains("did you mean \"L2_total_cache_miss_rate\"");
  }

  @Test
  void cli_showsAColumnWithTheSpreadAndTheChangeFromTheBaseline() {
    Result result = cascade.run("runs", "results", runId, "--measure", "L2_total_cache_miss_rate");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .contains("L2_total_cache_miss_rate VS BASELINE")
        .containsPattern("SM90_H100\\s+2\\s+.*0\\.9286 \\(all 2 agree\\)\\s+baseline")
        .containsPattern("SM90_H200\\s+1\\s+.*0\\.9286\\s+1\\.00x same within spread")
        .contains(
            "L2_total_cache_miss_rate: \"L2_total_cache_miss_rate\" as the simulator printed");
  }

  @Test
  void cli_csvHasTheStatisticsColumns_andAMisspeltNameExits2() {
    Result csv =
        cascade.run("runs", "results", runId, "--csv", "--measure", "L2_total_cache_misses:change");

    assertThat(csv.exit()).as(csv.err()).isZero();
    List<String> lines = csv.out().lines().toList();
    assertThat(lines.getFirst())
        .endsWith(
            ",L2_total_cache_misses:change_mean,L2_total_cache_misses:change_stdev,"
                + "L2_total_cache_misses:change_min,L2_total_cache_misses:change_max,"
                + "L2_total_cache_misses:change_ratio,L2_total_cache_misses:change_direction");
    // The total row of SM90_H100: the changes add up to the last running total, 26.
    assertThat(lines.get(9)).contains(",total,").endsWith(",26,0,26,26,1,same_within_spread");

    Result refused = cascade.run("runs", "results", runId, "--measure", "L2_total_cache_miss_rat");
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.err()).contains("did you mean \"L2_total_cache_miss_rate\"");
  }

  @Test
  void cli_measuresFromTheExampleStatsFile_addsItsStatisticsAndNotesWhatIsDropped() {
    Path statsFile = FIXTURES.resolve("accelsim/stats/example_stats.yml");
    Assumptions.assumeTrue(Files.isRegularFile(statsFile), "needs " + statsFile);

    Result result =
        cascade.run("runs", "results", runId, "--json", "--measures-from", statsFile.toString());

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.err()).contains("--measures-from: ").contains("gpgpu_simulation_time");
    assertThat(result.out())
        .contains("\"gpu_tot_sim_insn:change\"")
        .contains("\"gpgpu_simulation_rate#2\"")
        .contains("\"gpu_ipc:mean\"");

    Result missing = cascade.run("runs", "results", runId, "--measures-from", "no-such.yml");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("--measures-from: cannot read \"no-such.yml\"");
  }

  private HttpResponse<String> get(String path) throws Exception {
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client.send(
          HttpRequest.newBuilder(URI.create(cascade.server.url() + path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }
}
