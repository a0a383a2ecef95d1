package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.emulator.TestTraces;
import dev.cascade.core.testkit.TestApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs through the real app: the local launcher starts one lean agent JVM per sim, which runs
 * the emulator in process and reports over the real HTTP endpoints.
 */
final class SimAgentWithAppIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private TestApp app;
  private Cascade cascade;

  /** The app on a three-kernel "demo" trace, its sims emulating at {@code speed}. */
  private void start(String speed) throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(),
        () -> "the local launcher cannot run here: " + launcher.unavailableReason().orElse(""));
    Path dataDir = dir.resolve("data");
    Path trace = dataDir.resolve("s3/cascade/accelsim-traces/demo");
    TestTraces.write(
        trace.resolve("traces"),
        List.of(
            TestTraces.kernel("_Z4axpyPfS_", 128),
            TestTraces.kernel("_Z6reducePf", 16),
            TestTraces.kernel("_Z4axpyPfS_", 128)));
    Files.writeString(
        trace.resolve("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\"}");
    // Replicas agree exactly without --jitter; these tests want a spread to compare.
    app =
        TestApp.start(
            dataDir,
            launcher,
            TestApp.agentCommand("--speed", speed, "--jitter"),
            0,
            settings -> settings);
    cascade = app.cascade();
  }

  @AfterEach
  void stop() {
    if (app != null) {
      app.stopUnfinishedSims();
      app.close();
    }
  }

  @Test
  void emulatedRun_succeedsWithTheTracesKernelsAndASpreadAcrossReplicas() throws Exception {
    start("0");

    Run run =
        cascade
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 3), new RunEntry("SM90_H200", 1)));
    await().atMost(WAIT).until(() -> !cascade.runs().get(run.id()).state().equals(RunState.ACTIVE));

    Run done = cascade.runs().get(run.id());
    assertThat(done.sims())
        .as(() -> done.sims().toString())
        .allSatisfy(
            sim -> {
              assertThat(sim.state()).isEqualTo(SimState.SUCCEEDED);
              assertThat(sim.exitCode()).isZero();
            });
    List<ConfigResult> results = cascade.results().compare(run.id());
    ConfigResult h100 =
        results.stream().filter(r -> r.gpuConfig().equals("SM90_H100")).findFirst().orElseThrow();
    assertThat(h100.kernels()).hasSize(3);
    assertThat(h100.total().cycles().min()).isLessThan(h100.total().cycles().max());
    assertThat(h100.total().instructions().min()).isEqualTo(h100.total().instructions().max());
  }

  @Test
  void cancel_stopsTheAgentsAndTheirEmulators() throws Exception {
    start("1");

    Run run = cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)));
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade.runs().get(run.id()).sims().stream()
                    .allMatch(s -> s.state() == SimState.RUNNING));
    List<Long> pids =
        cascade.runs().get(run.id()).sims().stream()
            .map(s -> Long.parseLong(s.launcherRef()))
            .toList();
    cascade.runs().cancel(run.id());

    assertThat(cascade.runs().get(run.id()).state()).isEqualTo(RunState.CANCELLED);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                pids.stream()
                    .allMatch(pid -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)));
  }
}
