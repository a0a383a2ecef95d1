package dev.cascade.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.SimState;
import dev.cascade.core.testkit.TestApp;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs on the real single-node Slurm cluster of {@code scripts/slurm-cluster.sh}, with
 * Cascade's HTTP server and the sim agent running the emulator in each array task, as {@code
 * cascade serve --sims slurm} would.
 */
final class SlurmRunIT {

  private static final List<RunEntry> ENTRIES =
      List.of(new RunEntry("SM90_H100", 4), new RunEntry("SM90_H200", 4));

  @TempDir Path dir;
  private SlurmLauncherSettings settings;

  @BeforeEach
  void cluster() {
    settings = SlurmCluster.settingsOrSkip();
  }

  @AfterEach
  void stopWhatIsLeft() {
    SlurmTestCleanup.stopEverythingUnder(settings, dir);
  }

  @Test
  void run_ofTwoConfigsTimesFourReplicas_isTwoJobArraysWithTheLocalLaunchersResults()
      throws Exception {
    List<String> simulator = TestApp.agentCommand("--speed", "0");
    List<ConfigResult> local = TestApp.localResults(dir.resolve("local"), simulator, ENTRIES);

    try (SlurmLauncher launcher = new SlurmLauncher(settings);
        TestApp app = TestApp.start(dir.resolve("slurm"), launcher, simulator, 0, b -> b)) {
      Run run = app.awaitFinished(app.create(ENTRIES).id());

      assertThat(run.sims())
          .allSatisfy(
              sim -> {
                assertThat(sim.state())
                    .as(sim.id() + ": " + sim.error())
                    .isEqualTo(SimState.SUCCEEDED);
                assertThat(sim.launcherName()).isEqualTo("slurm");
                assertThat(sim.launcherRef()).matches("\\d+_" + sim.replica());
              });
      Set<String> arrays =
          run.sims().stream()
              .map(sim -> sim.launcherRef().split("_")[0])
              .collect(Collectors.toSet());
      assertThat(arrays).as("one job array per run entry").hasSize(2);
      assertThat(app.cascade().results().compare(run.id())).isEqualTo(local);
    }
  }
}
