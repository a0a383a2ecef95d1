package dev.cascade.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimContract;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.LauncherStatus;
import dev.cascade.core.spi.SimLaunch;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With accounting on, a task's end is still known once {@code squeue} has forgotten it: {@code
 * sacct} answers. On the second test cluster, whose {@code MinJobAge} is seconds.
 */
final class SlurmAccountingIT {

  @TempDir Path dir;

  private SimLaunch launch(String simId, int replica) {
    SimContract contract =
        new SimContract(
            URI.create("http://127.0.0.1:9"),
            simId,
            "token-" + replica,
            "r_acct",
            replica,
            "demo",
            dir.resolve("data/trace"),
            "SM90_H100",
            null,
            dir.resolve("data"),
            "sh");
    // Task 0 exits 0, task 1 exits 1: Slurm records COMPLETED and FAILED.
    return new SimLaunch(
        contract,
        List.of("sh", "-c", "exit $CASCADE_REPLICA"),
        Map.of(),
        dir.resolve("data/work/sims/" + simId),
        dir.resolve("data/work/sims/" + simId + ".out"));
  }

  @Test
  void tasksSqueueForgot_areFoundInAccounting() {
    SlurmLauncher launcher = new SlurmLauncher(SlurmCluster.accountingSettingsOrSkip());
    List<String> refs =
        launcher.launchAll(List.of(launch("s_ok", 0), launch("s_bad", 1))).stream()
            .map(LaunchResult::ref)
            .toList();
    assertThat(refs).doesNotContainNull();
    SlurmCommands squeue =
        new SlurmCommands(launcher.settings().slurmConf(), Duration.ofSeconds(30));
    String job = refs.getFirst().split("_")[0];

    // Slurm purges ended jobs from its memory about once a minute after MinJobAge.
    await()
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofSeconds(2))
        .until(() -> !queueShows(squeue, job));

    Map<String, LauncherStatus> statuses = launcher.status(refs);
    assertThat(statuses.get(refs.get(0))).isEqualTo(LauncherStatus.ended("Slurm state COMPLETED"));
    assertThat(statuses.get(refs.get(1)).phase()).isEqualTo(LauncherStatus.Phase.ENDED);
    assertThat(statuses.get(refs.get(1)).detail()).startsWith("Slurm state FAILED");
  }

  private static boolean queueShows(SlurmCommands squeue, String job) {
    try {
      return !squeue
          .run(List.of("squeue", "--noheader", "--states=all", "--jobs=" + job))
          .isBlank();
    } catch (SlurmException e) {
      return false; // "Invalid job id": forgotten
    }
  }
}
