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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernel windows, reuse and provenance on the demo trace, through the real app: the local launcher
 * starts a lean agent JVM per sim, which runs the emulator on the list it is given.
 */
final class ExperimentsWithAgentIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5));
  private Cascade cascade;

  @BeforeEach
  void start() throws Exception {
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
            "0"));
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
      cascade.server().ifPresent(CascadeServer::close);
      cascade.close();
    }
  }

  private Run finished(Run run) {
    await().atMost(WAIT).until(() -> cascade.runs().get(run.id()).state() != RunState.ACTIVE);
    return cascade.runs().get(run.id());
  }

  @Test
  void kernelWindow2to3_onTheDemoTrace_givesResultsForKernels2And3Only() {
    Trace demo = cascade.traces().find(DemoTraces.DEMO_ID).orElseThrow();
    assertThat(demo.kernelCount()).isGreaterThan(3);

    Run run =
        finished(
            cascade
                .runs()
                .create(DemoTraces.DEMO_ID, List.of(new RunEntry("SM90_H100", 1, "2-3"))));

    Sim sim = run.sims().get(0);
    assertThat(sim.state()).as(() -> String.valueOf(sim.error())).isEqualTo(SimState.SUCCEEDED);
    assertThat(sim.progress().kernelsDone()).isEqualTo(2);
    assertThat(cascade.runs().kernels(sim.id()))
        .extracting(KernelResult::name)
        .containsExactly(demo.kernels().get(1).name(), demo.kernels().get(2).name());
    ConfigResult result = cascade.results().compare(run.id()).get(0);
    assertThat(result.kernels())
        .extracting(KernelComparison::name)
        .containsExactly(demo.kernels().get(1).name(), demo.kernels().get(2).name());
    assertThat(result.notes()).anyMatch(note -> note.contains("[2, 3]"));
    assertThat(sim.kernels()).isEqualTo("2-3");
    assertThat(
            dev.cascade.core.json.ResultsJson.writeSimKernels(
                    sim, 1980.0, cascade.runs().kernels(sim.id()))
                .get("simulated_kernels"))
        .isEqualTo(List.of(2, 3));
  }

  @Test
  void reuse_onTheEmulator_launchesNothingAndGivesEqualResults() {
    Run first =
        finished(cascade.runs().create(DemoTraces.DEMO_ID, List.of(new RunEntry("SM90_H100", 2))));
    assertThat(first.state()).isEqualTo(RunState.SUCCEEDED);
    Provenance provenance = first.sims().get(0).provenance();
    assertThat(provenance.simulator()).isEqualTo("cascade-emulator-2.0");
    assertThat(provenance.accelSimBuild()).isEqualTo("cascade-emulator-2.0");
    assertThat(provenance.traceHash()).startsWith("sha256:");

    Run again =
        cascade.runs().create(DemoTraces.DEMO_ID, List.of(new RunEntry("SM90_H100", 2)), true);

    assertThat(again.state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(again.sims())
        .allSatisfy(
            sim -> {
              assertThat(sim.launcherName()).isNull();
              assertThat(sim.provenance().reusedFrom())
                  .isEqualTo(first.sims().get(sim.replica()).id());
            });
    assertThat(cascade.results().compare(again.id()))
        .isEqualTo(cascade.results().compare(first.id()));
  }
}
