package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.Run;
import dev.cascade.core.RunState;
import dev.cascade.core.Sim;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cascade runs retry|rerun}, {@code --kernels} and failure classes in what it prints. */
final class RunsRetryCommandIT {

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @BeforeEach
  void start() throws Exception {
    cascade = new CliTestServer(dataDir);
  }

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  private String runIdOf(Result created) {
    assertThat(created.exit()).as(created.err()).isZero();
    return created.out().substring("Created run ".length()).split(" ")[0];
  }

  @Test
  void retry_relaunchesTheFailedSims_andShowPrintsTheirClassAndAttempts() throws Exception {
    String runId = runIdOf(cascade.run("runs", "create", "demo", "SM90_H100:2"));
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(2);
    cascade.fail(sims.get("SM90_H100#0"), "GPGPU-Sim uArch: ERROR ** deadlock detected");
    cascade.succeed(sims.get("SM90_H100#1"));

    Result shown = cascade.run("runs", "show", runId);
    assertThat(shown.out()).contains("deadlock: GPGPU-Sim uArch: ERROR ** deadlock detected");

    Result retried = cascade.run("runs", "retry", runId);

    assertThat(retried.exit()).as(retried.err()).isZero();
    assertThat(retried.out()).startsWith("Retried run " + runId + ": 1 sims launched again");
    SimLaunch again = cascade.nextLaunch();
    assertThat(again.replica()).isZero();
    cascade.succeed(again);
    await()
        .atMost(CliTestServer.WAIT)
        .until(() -> cascade.engine.runs().get(runId).state() == RunState.SUCCEEDED);
    assertThat(cascade.run("runs", "show", runId).out()).contains("(attempt 2)");

    Result nothing = cascade.run("runs", "retry", runId);
    assertThat(nothing.exit()).isEqualTo(1);
    assertThat(nothing.err()).contains("no failed or cancelled sim to retry");
  }

  @Test
  void rerun_createsANewRunWithTheSameEntries_andKernelsGivesEachEntryAWindow() throws Exception {
    String runId =
        runIdOf(
            cascade.run(
                "runs", "create", "demo", "SM90_H100:1", "SM90_H200:1", "--kernels", "2-3"));
    Run run = cascade.engine.runs().get(runId);
    assertThat(run.sims()).allSatisfy(sim -> assertThat(sim.kernels()).isEqualTo("2-3"));

    Result rerun = cascade.run("runs", "rerun", runId);

    assertThat(rerun.exit()).as(rerun.err()).isZero();
    String newId = rerun.out().substring("Created run ".length()).split(" ")[0];
    Run copy = cascade.engine.runs().get(newId);
    assertThat(copy.entries()).isEqualTo(run.entries());
    assertThat(copy.sims()).extracting(Sim::kernels).containsOnly("2-3");
  }

  @Test
  void kernels_beyondTheTrace_namesTheValueAndTheKernelCount() {
    Result result = cascade.run("runs", "create", "demo", "SM90_H100:1", "--kernels", "9");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .startsWith("cascade: kernels \"9\" names kernel 9")
        .contains("has " + CliTestServer.KERNELS + " kernels");
    assertThat(cascade.engine.runs().list()).isEmpty();
    assertThat(List.of(result.out())).containsExactly("");
  }
}
