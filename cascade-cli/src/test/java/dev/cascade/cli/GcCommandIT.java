package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade gc}: drops finished runs' logs on the server, keeps results; usage errors exit 2.
 */
final class GcCommandIT {

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void gc_dropsTheLogsOfFinishedRuns_andKeepsTheirResults() throws Exception {
    cascade = new CliTestServer(dataDir);
    String runId = cascade.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2))).id();
    for (SimLaunch sim : cascade.nextLaunches(2)) {
      cascade.succeed(sim);
    }
    await()
        .atMost(CliTestServer.WAIT)
        .until(() -> cascade.engine.runs().get(runId).state() == RunState.SUCCEEDED);

    Result kept = cascade.run("gc", "--older-than", "30d");
    assertThat(kept.exit()).as(kept.err()).isZero();
    assertThat(kept.out()).contains("Dropped the logs of 0 sims in 0 runs");

    Result dropped = cascade.run("gc", "--older-than", "0");
    assertThat(dropped.exit()).as(dropped.err()).isZero();
    assertThat(dropped.out()).contains("Dropped the logs of 2 sims in 1 runs").contains("Results");
    assertThat(cascade.engine.runs().kernels(cascade.engine.runs().get(runId).sims().get(0).id()))
        .isNotEmpty();

    Result refused = cascade.run("gc", "--older-than", "a month");
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.err()).contains("--older-than").contains("\"a month\"");
  }
}
