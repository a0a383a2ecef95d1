package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.TestApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Failure classes from what a real sim process prints and how it exits: the sim agent runs the
 * emulator told to fail the way Accel-Sim does (its deadlock line, its unsupported-binary line, a
 * SIGSEGV crash), and the app classes each from the log and the exit status.
 */
final class FailureClassWithAgentIT {

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private TestApp app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stopUnfinishedSims();
      app.close();
    }
  }

  @ParameterizedTest
  @CsvSource({"deadlock, DEADLOCK", "unsupported-binary, UNSUPPORTED_BINARY", "crash, SEGFAULT"})
  void aFailingSimulator_isClassedFromItsLogAndExitStatus(String failure, FailureClass expected)
      throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
    app =
        TestApp.start(
            dir.resolve("data"),
            launcher,
            TestApp.agentCommand("--speed", "0", "--fail-at-kernel", "2", "--failure", failure),
            0,
            settings -> settings);

    Run run = app.awaitFinished(app.create(List.of(new RunEntry("SM90_H100", 1))).id());

    Sim sim = run.sims().get(0);
    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.failureClass()).as(sim.error()).isEqualTo(expected);
  }
}
