package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.agent.emulator.TestTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  private Cascade cascade;
  private CascadeServer server;

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
            speed,
            // Replicas agree exactly without it; these tests want a spread to compare.
            "--jitter"));
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
    server = cascade.server().orElseThrow();
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade
                    .traces()
                    .find("demo")
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));
  }

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
      server.close();
      cascade.close();
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
