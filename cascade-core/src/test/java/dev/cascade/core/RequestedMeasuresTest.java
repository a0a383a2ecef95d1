package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.results.ResultsComparer;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.json.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A statistic named in a request reaches the results with its spread, its change from the baseline
 * and its CSV columns, with no code for it: two replicas of {@code SM80_A100} and one of {@code
 * SM90_H100}, each sending the real A100 log of the flashinfer gemm (8 kernels) as a sim would.
 */
final class RequestedMeasuresTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Path A100_LOG =
      FIXTURES.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

  /** {@code L2_total_cache_miss_rate} as the log prints it in its 8 blocks. */
  private static final double[] MISS_RATE = {1, 1, 1, 1, 1, 1, 0.9630, 0.9286};

  /** {@code L2_total_cache_misses}, a running total: 1, 2, 4, 6, 8, 25, 26, 26. */
  private static final double[] MISSES_CHANGE = {1, 1, 2, 2, 2, 17, 1, 0};

  @TempDir Path dataDir;
  private Database database;
  private Run run;

  @BeforeEach
  void storeTheRealLogForEverySim() throws IOException {
    Assumptions.assumeTrue(
        Files.isRegularFile(A100_LOG),
        "needs the fixtures at " + FIXTURES + " (beside the clone at ../shared/fixtures)");
    database = Database.open(dataDir.resolve("cascade.db"));
    SimRepository sims = new SimRepository(database, CLOCK);
    SimOutput output = new SimOutput(database, new EventLog(database), CLOCK);
    Ids ids = new Ids(CLOCK);
    String runId = ids.newRunId();
    List<Sim> all =
        List.of(
            Sim.pending(ids.newSimId(), runId, "SM80_A100", 0, 8, T0),
            Sim.pending(ids.newSimId(), runId, "SM80_A100", 1, 8, T0),
            Sim.pending(ids.newSimId(), runId, "SM90_H100", 0, 8, T0));
    run =
        new Run(
            runId,
            "gemm",
            List.of(new RunEntry("SM80_A100", 2), new RunEntry("SM90_H100", 1)),
            T0,
            all);
    new RunRepository(database).insert(run);
    byte[] log = Files.readAllBytes(A100_LOG);
    for (Sim sim : all) {
      int seq = 0;
      for (int from = 0; from < log.length; from += 70_000) {
        output.accept(
            sim.id(),
            runId,
            seq++,
            Arrays.copyOfRange(log, from, Math.min(log.length, from + 70_000)));
      }
      sims.transition(sim.id(), SimState.LAUNCHING);
      sims.transition(sim.id(), SimState.RUNNING);
      sims.transition(sim.id(), SimState.SUCCEEDED);
      output.release(sim.id());
    }
    run = new RunRepository(database).find(runId).orElseThrow();
  }

  @AfterEach
  void close() {
    if (database != null) {
      database.close();
    }
  }

  @Test
  void statisticByItsName_hasItsSpreadPerKernelAndTheLastValueForTheTrace() {
    List<ConfigResult> results =
        comparer().compare(run.id(), Measures.parseList("L2_total_cache_miss_rate"));

    ConfigResult a100 = results.getFirst();
    assertThat(a100.kernels()).hasSize(8);
    for (int i = 0; i < 8; i++) {
      Spread rate = a100.kernels().get(i).spread("L2_total_cache_miss_rate");
      assertThat(rate.n()).as("kernel %d", i).isEqualTo(2);
      assertThat(rate.mean()).as("kernel %d", i).isCloseTo(MISS_RATE[i], within(1e-9));
      assertThat(rate.stdev()).isZero();
    }
    assertThat(a100.total().spread("L2_total_cache_miss_rate").values())
        .containsExactly(0.9286, 0.9286);
    // The defaults are as they were.
    assertThat(a100.total().cycles().mean()).isEqualTo(46752);
  }

  @Test
  void changeForm_takesARunningTotalsDifferencePerKernelAndSumsThem() {
    ConfigResult a100 =
        comparer().compare(run.id(), Measures.parseList("L2_total_cache_misses:change")).getFirst();

    for (int i = 0; i < 8; i++) {
      assertThat(a100.kernels().get(i).spread("L2_total_cache_misses:change").mean())
          .as("kernel %d", i)
          .isEqualTo(MISSES_CHANGE[i]);
    }
    assertThat(a100.total().spread("L2_total_cache_misses:change").mean()).isEqualTo(26);
  }

  @Test
  void json_listsTheMeasureAndCarriesItsSpreadAndChangeFromTheBaseline() {
    List<Measure> measures = Measures.parseList("L2_total_cache_miss_rate");
    List<ConfigResult> results = comparer().compare(run.id(), measures);
    JsonNode json =
        new ObjectMapper()
            .valueToTree(ResultsJson.writeResults(run, results, "SM80_A100", measures));

    assertThat(json.path("measures").findValuesAsText("id"))
        .containsExactly(
            "cycles", "instructions", "ipc", "simulated_time_us", "L2_total_cache_miss_rate");
    JsonNode h100Total = json.path("configs").get(1).path("total");
    assertThat(h100Total.path("L2_total_cache_miss_rate").path("mean").asDouble())
        .isEqualTo(0.9286);
    assertThat(
            h100Total
                .path("versus_baseline")
                .path("L2_total_cache_miss_rate")
                .path("direction")
                .asText())
        .isEqualTo("same_within_spread");
    // Read back through the one JSON mapping, as the client does.
    assertThat(ResultsJson.readResults(json).get(1).total().spread("L2_total_cache_miss_rate").n())
        .isEqualTo(1);
  }

  @Test
  void csv_hasTheMeasuresColumnsAfterTodaysOnes() throws IOException {
    StringBuilder csv = new StringBuilder();
    ResultsCsv.write(
        comparer().compare(run.id(), Measures.parseList("L2_total_cache_miss_rate")),
        null,
        Measures.parseList("L2_total_cache_miss_rate"),
        csv);

    List<String> lines = csv.toString().lines().toList();
    List<String> header = List.of(lines.getFirst().split(","));
    assertThat(header.subList(0, ResultsCsv.CSV_HEADER.size())).isEqualTo(ResultsCsv.CSV_HEADER);
    assertThat(header.subList(ResultsCsv.CSV_HEADER.size(), header.size()))
        .containsExactly(
            "L2_total_cache_miss_rate_mean",
            "L2_total_cache_miss_rate_stdev",
            "L2_total_cache_miss_rate_min",
            "L2_total_cache_miss_rate_max",
            "L2_total_cache_miss_rate_ratio",
            "L2_total_cache_miss_rate_direction");
    String a100Total = lines.get(9); // header, 8 kernels, then the total
    assertThat(a100Total)
        .startsWith("SM80_A100,")
        .contains(",total,")
        .endsWith(",0.9286,0,0.9286,0.9286,1,same_within_spread");
  }

  @Test
  void aStatisticNoKernelPrinted_isRefusedNamingTheClosest() {
    assertThatThrownBy(
            () -> comparer().compare(run.id(), Measures.parseList("L2_total_cache_miss_rat")))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("measures");
            })
        .hasMessageContaining("\"L2_total_cache_miss_rat\"")
        .hasMessageContaining("did you mean \"L2_total_cache_miss_rate\"");
  }

  @Test
  void noMeasuresAsked_givesTheSameResultsAsBefore() {
    assertThat(comparer().compare(run.id(), List.of())).isEqualTo(comparer().compare(run.id()));
    assertThat(comparer().compare(run.id()).getFirst().total().measures()).isEqualTo(Map.of());
  }

  @Test
  void exampleStatsFile_asAMeasureSet_comparesOnTheRealLogWithWhatTheParserDoesNotKeepDropped()
      throws IOException {
    Path statsFile = FIXTURES.resolve("accelsim/stats/example_stats.yml");
    Assumptions.assumeTrue(Files.isRegularFile(statsFile), "needs " + statsFile);

    GetStatsMeasures set = GetStatsMeasures.read(statsFile);

    assertThat(set.measures())
        .extracting(Measure::id)
        .startsWith("gpu_tot_sim_insn:change", "gpu_tot_sim_cycle:change")
        .contains(
            "L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]:change",
            "total dram reads:change",
            "gpu_ipc:mean",
            "gpu_occupancy:mean",
            "L2_BW:mean",
            "gpgpu_simulation_rate",
            "gpgpu_simulation_rate#2",
            "gpu_tot_ipc")
        .doesNotContain("gpgpu_simulation_time:change");
    assertThat(set.notes()).singleElement().asString().contains("gpgpu_simulation_time is dropped");

    List<String> statistics =
        database.read(
            c ->
                List.copyOf(
                    new dev.cascade.core.internal.store.KernelRepository(database)
                        .read(c, run.sims().getFirst().id())
                        .getFirst()
                        .stats()
                        .keySet()));
    GetStatsMeasures kept = set.keptBy(statistics);
    List<ConfigResult> results = comparer().compare(run.id(), kept.measures());

    ConfigResult a100 = results.getFirst();
    // get_stats.py's per-kernel diff of the running total is the kernel's own instructions.
    for (KernelComparison kernel : a100.kernels()) {
      assertThat(kernel.spread("gpu_tot_sim_insn:change").mean())
          .as(kernel.label())
          .isEqualTo(kernel.instructions().mean());
    }
    assertThat(a100.total().spread("gpu_tot_sim_insn:change").mean())
        .isEqualTo(a100.total().instructions().mean());
    assertThat(a100.total().spread("gpgpu_simulation_rate#2").n()).isEqualTo(2);
    assertThat(kept.measures().size() + kept.notes().size())
        .isEqualTo(set.measures().size() + set.notes().size());
  }

  private ResultsComparer comparer() {
    return new ResultsComparer(database, GpuConfigCatalog.builtIn());
  }
}
