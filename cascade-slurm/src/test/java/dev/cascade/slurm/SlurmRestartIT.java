package dev.cascade.slurm;

import static dev.cascade.core.testkit.TestApp.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.testkit.TestApp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The app killed with SIGKILL while its Slurm tasks run, and started again on the same data. */
final class SlurmRestartIT {

  /** About 17 s for the demo trace: the tasks outlive the app's first process. */
  static final List<String> SIMULATOR = TestApp.agentCommand("--speed", "2000");

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
  void appKilledAndStartedAgain_findsItsTasksByRefAndTheRunSucceeds() throws Exception {
    Path dataDir = dir.resolve("app");
    Process app =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                SlurmAppMain.class.getName(),
                dataDir.toString(),
                settings.slurmConf().toString())
            .redirectErrorStream(true)
            .start();
    String[] started;
    try {
      started = awaitStarted(app);
    } finally {
      app.destroyForcibly(); // SIGKILL: no shutdown hook, nothing closed
      app.waitFor(30, TimeUnit.SECONDS);
    }
    int port = Integer.parseInt(started[1]);
    String runId = started[3];

    try (SlurmLauncher launcher = new SlurmLauncher(settings);
        TestApp again = TestApp.start(dataDir, launcher, SIMULATOR, port, b -> b)) {
      List<String> refsBefore =
          again.cascade().runs().get(runId).sims().stream().map(Sim::launcherRef).toList();
      assertThat(launcher.status(refsBefore)).hasSize(2);

      Run run = again.awaitFinished(runId);

      TestApp.assertAllSucceeded(run);
      // Found again by their refs, not submitted a second time.
      assertThat(run.sims()).extracting(Sim::launcherRef).containsExactlyElementsOf(refsBefore);
      assertThat(String.join(" ", started)).contains(refsBefore.getFirst());
    }
  }

  /** Reads the app's output until its {@code PORT <port> RUN <id> REFS [...]} line. */
  private static String[] awaitStarted(Process app) throws Exception {
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + WAIT.toNanos();
    StringBuilder seen = new StringBuilder();
    String line;
    while (System.nanoTime() < deadline && (line = lines.readLine()) != null) {
      if (line.startsWith("PORT ")) {
        Thread.ofVirtual().start(() -> lines.lines().forEach(ignored -> {}));
        return line.split(" ");
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("the app never said its sims run; it printed:\n" + seen);
  }
}
