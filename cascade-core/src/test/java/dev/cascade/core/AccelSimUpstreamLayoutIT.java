package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.emulator.TestTraces;
import dev.cascade.core.testkit.FakeAccelSim;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sim on an Accel-Sim checkout laid out as upstream's ({@code trace.config} only in {@code
 * gpu-simulator/configs/tested-cfgs/<name>/}, an {@code .icnt} named relatively): with just {@code
 * CASCADE_ACCELSIM_DIR} set, the catalog finds the trace.config, and the sim's {@code
 * accel-sim.out} (a script that checks its arguments as the real one reads them) gets {@code
 * -config $CASCADE_GPU_CONFIG_DIR/trace.config} naming that file and opens the {@code .icnt} from
 * its working folder.
 */
final class AccelSimUpstreamLayoutIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private Cascade cascade;
  private CascadeServer server;

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
  void aSim_getsTheTraceConfigAccelSimKeepsApart_andItsIcntInItsWorkingFolder() throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(),
        () -> "the local launcher cannot run here: " + launcher.unavailableReason().orElse(""));
    Path accelSim = FakeAccelSim.withScript(dir, FakeAccelSim.checksItsConfigsAndPrintsTheLog());
    Path traceConfig = FakeAccelSim.withUpstreamLayout(accelSim);
    Path dataDir = dir.resolve("data");
    Path trace = dataDir.resolve("s3/cascade/accelsim-traces/demo");
    TestTraces.write(trace.resolve("traces"), List.of(TestTraces.kernel("_Z4axpyPfS_", 4)));
    Files.writeString(
        trace.resolve("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_70\"}");
    cascade =
        Cascade.builder()
            .fromEnvironment(
                Map.of("CASCADE_ACCELSIM_DIR", accelSim.toString(), "PATH", System.getenv("PATH")))
            .dataDir(dataDir)
            .launcher(launcher)
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    server = cascade.server().orElseThrow();

    GpuConfig config = cascade.configs().find("SM7_QV100").orElseThrow();
    assertThat(config.usable()).isTrue();
    assertThat(config.traceConfig()).isEqualTo(traceConfig.toAbsolutePath().normalize());
    assertThat(SimCommands.runsAccelSim(cascade.settings().simCommand())).isTrue();
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade
                    .traces()
                    .find("demo")
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));

    Run run = cascade.runs().create("demo", List.of(new RunEntry("SM7_QV100", 1)));
    await().atMost(WAIT).until(() -> !cascade.runs().get(run.id()).state().equals(RunState.ACTIVE));

    Sim sim = cascade.runs().get(run.id()).sims().getFirst();
    String log;
    try (InputStream in = cascade.runs().log(sim.id())) {
      log = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(sim.state()).as(log).isEqualTo(SimState.SUCCEEDED);
    assertThat(log)
        .contains(
            "read trace.config "
                + dataDir.resolve("work/gpu-configs/SM7_QV100/trace.config")
                + ": -trace_opcode_latency_initiation_int 2,2");
    assertThat(cascade.runs().kernels(sim.id()))
        .singleElement()
        .satisfies(kernel -> assertThat(kernel.cycles()).isEqualTo(FakeAccelSim.CYCLES));
  }
}
