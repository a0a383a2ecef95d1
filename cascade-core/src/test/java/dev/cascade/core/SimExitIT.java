package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulator that exits without reporting: the local launcher is its parent and knows at once, so
 * the sim fails with the exit code and its last output instead of waiting out the heartbeat give-up
 * (10 minutes by default, far beyond these tests' wait).
 */
final class SimExitIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(2));
  private Engine engine;

  private Sim runOne(List<String> simCommand) throws IOException {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
    TestTraces.writeReady(dataDir, "demo", 2);
    engine =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .simCommand(simCommand)
                .mainUrl("http://127.0.0.1:9")
                .settings());
    engine.startLaunching("http://127.0.0.1:9");
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.traces().find("demo").map(t -> t.state() == TraceState.READY).orElse(false));
    String simId =
        engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1))).sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).state().isFinished());
    return engine.runs().sim(simId);
  }

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void binFalse_failsTheSimAtOnceWithExitCode1() throws IOException {
    Sim sim = runOne(List.of("/bin/false"));

    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.exitCode()).isEqualTo(1);
    assertThat(sim.error())
        .isEqualTo("the simulator exited with code 1 before reporting its end and printed nothing");
  }

  @Test
  void aSimulatorThatDies_failsWithItsExitCodeAndTheLastLinesItPrinted() throws IOException {
    Sim sim =
        runOne(
            List.of(
                "/bin/sh",
                "-c",
                "echo starting; echo 'cannot open config gpgpusim.config' >&2; exit 3"));

    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.exitCode()).isEqualTo(3);
    assertThat(sim.error())
        .startsWith("the simulator exited with code 3 before reporting its end; its output (")
        .endsWith("ends with: starting | cannot open config gpgpusim.config");
  }
}
