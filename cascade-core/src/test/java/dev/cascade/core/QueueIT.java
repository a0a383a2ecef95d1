package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.agent.emulator.TestTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue with real sims: the local launcher with two slots starts one agent JVM per sim, which
 * runs the emulator and reports over HTTP.
 */
final class QueueIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Set<SimState> HOLDING =
      Set.of(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST);

  @TempDir Path dir;

  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(5), 2);
  private Cascade cascade;

  private void start(String speed) throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
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
            speed));
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .monitorInterval(Duration.ofMillis(250))
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .finishedStopDelay(Duration.ofSeconds(2))
            .simCommand(command)
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(0))
            .build()
            .start();
    cascade.traces().await("demo", WAIT);
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
      cascade.close();
    }
  }

  private Run awaitEnd(Run run, AtomicInteger peakHolding) {
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              Run now = cascade.runs().get(run.id());
              int holding =
                  (int) now.sims().stream().filter(s -> HOLDING.contains(s.state())).count();
              peakHolding.accumulateAndGet(holding, Math::max);
              return now.state() != RunState.ACTIVE;
            });
    return cascade.runs().get(run.id());
  }

  @Test
  void twelveSimsOnTwoSlots_neverRunMoreThanTwoAndAllSucceed() throws Exception {
    start("0");

    Run run =
        cascade
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 6), new RunEntry("SM90_H200", 6)));
    AtomicInteger peak = new AtomicInteger();
    Run done = awaitEnd(run, peak);

    assertThat(done.sims())
        .hasSize(12)
        .allSatisfy(sim -> assertThat(sim.state()).as(sim::toString).isEqualTo(SimState.SUCCEEDED));
    assertThat(peak.get()).isEqualTo(2);
  }

  @Test
  void eta_ofASecondRunOfTheSameTraceAndConfigIsWithinAQuarterOfTheFirstRunsLength()
      throws Exception {
    start("3000");
    Run first = cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    Run firstDone = awaitEnd(first, new AtomicInteger());
    assertThat(firstDone.state()).isEqualTo(RunState.SUCCEEDED);
    Duration firstTook =
        Duration.between(firstDone.createdAt(), firstDone.sims().getFirst().finishedAt());

    Run second = cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    SimSchedule schedule = cascade.runs().schedule(second.id()).get(second.sims().getFirst().id());

    assertThat(schedule.basis()).isEqualTo("1 earlier sim of this trace on SM90_H100");
    Duration estimated = Duration.between(second.createdAt(), schedule.eta());
    System.out.printf(
        "first run took %d ms; the second's ETA is %d ms after its creation%n",
        firstTook.toMillis(), estimated.toMillis());
    assertThat((double) estimated.toMillis())
        .isBetween(firstTook.toMillis() * 0.75, firstTook.toMillis() * 1.25);
    Run secondDone = awaitEnd(second, new AtomicInteger());
    Instant finished = secondDone.sims().getFirst().finishedAt();
    System.out.printf(
        "the second run took %d ms%n", Duration.between(second.createdAt(), finished).toMillis());
  }

  @Test
  void timeLimit_stopsASlowSimAsTimedOut() throws Exception {
    start("1");
    Run run =
        cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 1, Duration.ofSeconds(3))));
    String simId = run.sims().getFirst().id();

    Run done = awaitEnd(run, new AtomicInteger());

    Sim sim = done.sims().getFirst();
    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.error()).startsWith("timed out after 3s");
    assertThat(Duration.between(sim.launchedAt(), sim.finishedAt()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    await().atMost(WAIT).until(() -> launcher.hasEnded(cascade.runs().sim(simId).launcherRef()));
  }
}
