package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's get_stats.py CSV: a sim whose log is the real A100 log, stored chunk by chunk as a sim
 * sends it, gives what {@code get_stats.py -k -K} wrote for that log, byte for byte but for the row
 * labels' args, which Cascade names after the replica ({@code gemm/replica_0--...} where the
 * script's run folder had {@code gemm/a--...}).
 */
final class RunGetStatsTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Path A100_LOG =
      FIXTURES.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
  private static final Path STATS = FIXTURES.resolve("accelsim/stats");
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

  @TempDir Path dataDir;
  private Database database;
  private SimRepository sims;
  private SimOutput output;
  private Run run;

  @BeforeEach
  void open() {
    Assumptions.assumeTrue(
        Files.isRegularFile(A100_LOG) && Files.isDirectory(STATS),
        "needs the fixtures at " + FIXTURES + " (beside the clone at ../shared/fixtures)");
    database = Database.open(dataDir.resolve("cascade.db"));
    sims = new SimRepository(database, CLOCK);
    output = new SimOutput(database, new EventLog(database), CLOCK);
    Ids ids = new Ids(CLOCK);
    String runId = ids.newRunId();
    List<Sim> all =
        List.of(
            Sim.pending(ids.newSimId(), runId, "SM80_A100", 0, 8, T0),
            Sim.pending(ids.newSimId(), runId, "SM80_A100", 1, 8, T0));
    run = new Run(runId, "gemm", List.of(new RunEntry("SM80_A100", 2)), T0, all);
    new RunRepository(database).insert(run);
  }

  @AfterEach
  void close() {
    if (database != null) {
      database.close();
    }
  }

  @Test
  void write_isTheScriptsOutputForTheSameLog() throws IOException {
    String simId = run.sims().getFirst().id();
    byte[] log = Files.readAllBytes(A100_LOG);
    int seq = 0;
    for (int from = 0; from < log.length; from += 60_000) { // chunks split anywhere
      output.accept(
          simId,
          run.id(),
          seq++,
          Arrays.copyOfRange(log, from, Math.min(log.length, from + 60_000)));
    }
    sims.transition(simId, SimState.LAUNCHING);
    sims.transition(simId, SimState.RUNNING);
    sims.transition(simId, SimState.SUCCEEDED);
    output.release(simId);
    // The second replica never succeeded: it is not a row.
    sims.transition(run.sims().get(1).id(), SimState.CANCELLED);
    Run stored = new RunRepository(database).find(run.id()).orElseThrow();

    assertThat(write(stored, false)).isEqualTo(script("get_stats_kK_A100_flashinfer-gemm.csv"));
    assertThat(write(stored, true)).isEqualTo(script("get_stats_kKR_A100_flashinfer-gemm.csv"));
  }

  private String write(Run stored, boolean configsAsRows) throws IOException {
    StringBuilder out = new StringBuilder();
    RunGetStats.write(stored, sim -> output.log(sim.id()), configsAsRows, out);
    return out.toString();
  }

  /** The script's output, with the args of its run folder ({@code a}) named as Cascade names it. */
  private static String script(String file) throws IOException {
    return Files.readString(STATS.resolve(file), StandardCharsets.UTF_8)
        .replace("gemm/a--", "gemm/" + RunGetStats.args(0) + "--");
  }
}
