package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimAgentMain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private Cascade cascade;

  @AfterEach
  void stop() {
    if (cascade == null) {
      return;
    }
    try {
      for (Run run : cascade.runs().list()) {
        for (Sim sim : run.sims()) {
          if (sim.launcherRef() != null) {
            launcher.stop(sim.launcherRef());
          }
        }
      }
    } finally {
      cascade.server().ifPresent(CascadeServer::close);
      cascade.close();
    }
  }

  @ParameterizedTest
  @CsvSource({"deadlock, DEADLOCK", "unsupported-binary, UNSUPPORTED_BINARY", "crash, SEGFAULT"})
  void aFailingSimulator_isClassedFromItsLogAndExitStatus(String failure, FailureClass expected)
      throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
    Path dataDir = dir.resolve("data");
    DemoTraces.seedIfEmpty(dataDir);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-cp",
            SimAgentMain.classPath(),
            SimAgentMain.class.getName(),
            "--heartbeat-millis",
            "200",
            "--chunk-millis",
            "200",
            "--emulate",
            "--speed",
            "0",
            "--fail-at-kernel",
            "2",
            "--failure",
            failure));
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .simCommand(command)
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade
                    .traces()
                    .find(DemoTraces.DEMO_ID)
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));

    Run run = cascade.runs().create(DemoTraces.DEMO_ID, List.of(new RunEntry("SM90_H100", 1)));
    await().atMost(WAIT).until(() -> cascade.runs().get(run.id()).state() != RunState.ACTIVE);

    Sim sim = cascade.runs().get(run.id()).sims().get(0);
    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.failureClass()).as(sim.error()).isEqualTo(expected);
  }
}
