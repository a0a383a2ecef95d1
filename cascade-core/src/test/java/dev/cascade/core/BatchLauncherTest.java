package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.LauncherStatus;
import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launchers that take batches and know their own queue (as Slurm's does): one launch call per run
 * entry, queued sims not failed for silence, and an outside end failing the sim with its reason.
 */
final class BatchLauncherTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private final BatchLauncher launcher = new BatchLauncher();
  private Engine engine;

  @BeforeEach
  void start() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    engine =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .clock(clock)
                .monitorInterval(Duration.ZERO)
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .simCommand(List.of("simulate"))
                .mainUrl("http://127.0.0.1:9999")
                .settings());
    engine.startLaunching("http://127.0.0.1:9999");
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.traces().find("demo").map(t -> t.state() == TraceState.READY).orElse(false));
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private Run launched(RunEntry... entries) {
    Run run = engine.runs().create("demo", List.of(entries));
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.runs().get(run.id()).sims().stream()
                    .allMatch(sim -> sim.launcherRef() != null));
    return engine.runs().get(run.id());
  }

  @Test
  void eachRunEntry_isOneLaunchAllCall() {
    Run run = launched(new RunEntry("SM90_H100", 3), new RunEntry("SM90_H200", 2));

    assertThat(launcher.batches).hasSize(2);
    assertThat(launcher.batches)
        .allSatisfy(
            batch ->
                assertThat(batch)
                    .extracting(launch -> launch.contract().gpuConfig())
                    .containsOnly(batch.getFirst().contract().gpuConfig()));
    assertThat(launcher.batches).extracting(List::size).containsExactlyInAnyOrder(3, 2);
    assertThat(run.sims()).allSatisfy(sim -> assertThat(sim.launcherRef()).startsWith("task-"));
  }

  @Test
  void eachLaunch_isToldThePredictedPeak_aFirstGuessFromTheTracesSize() {
    Run run = launched(new RunEntry("SM90_H100", 2));

    long traceBytes = engine.traces().find("demo").orElseThrow().sizeBytes();
    assertThat(launcher.batches.getFirst())
        .extracting(SimLaunch::memoryBytes)
        .containsOnly(512L * 1024 * 1024 + 2 * traceBytes);
    assertThat(run.sims()).hasSize(2);
  }

  @Test
  void batchLauncher_hasNoSlots_soARunsEntryGoesToTheClusterAtOnceWhateverItsPriority() {
    Run run =
        engine
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 3)), new RunOptions("alice", 5));
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.runs().get(run.id()).sims().stream()
                    .allMatch(sim -> sim.launcherRef() != null));

    assertThat(launcher.batches).singleElement().satisfies(batch -> assertThat(batch).hasSize(3));
    assertThat(engine.runs().get(run.id()).owner()).isEqualTo("alice");
    assertThat(engine.runs().schedule(run.id()).values())
        .allSatisfy(schedule -> assertThat(schedule.queuePosition()).isNull());
    assertThat(engine.peakSlotsHeld()).isZero();
  }

  @Test
  void queuedSim_isNotFailedForSilence_andCountsFromWhenItLeftTheQueue() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    launcher.statuses.put(
        sim.launcherRef(), LauncherStatus.queued("Slurm state PENDING (Priority)"));

    clock.advance(Duration.ofHours(2));
    engine.checkLauncherStatus();
    engine.checkHeartbeats();

    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.LAUNCHING);
    assertThat(engine.queued().reason(sim.id())).contains("Slurm state PENDING (Priority)");

    // It starts: silence counts from when it was last seen queued, not from the launch.
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.running("Slurm state RUNNING"));
    clock.advance(Duration.ofSeconds(5));
    engine.checkLauncherStatus();
    engine.checkHeartbeats();
    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.LAUNCHING);
    assertThat(engine.queued().reason(sim.id())).isEmpty();

    clock.advance(Duration.ofSeconds(600));
    engine.checkHeartbeats();
    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.FAILED);
  }

  @Test
  void launcherThatCannotBeAsked_keepsASimThatNeverReportedQueued_andItRunsOnceItAnswers() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    launcher.statuses.put(
        sim.launcherRef(), LauncherStatus.queued("Slurm state PENDING (Priority)"));
    engine.checkLauncherStatus();
    // slurmctld goes down for far longer than the app waits for a silent sim.
    launcher.statuses.put(
        sim.launcherRef(), LauncherStatus.unknown("Slurm cannot be asked: connect failure"));
    for (int poll = 0; poll < 24; poll++) {
      clock.advance(Duration.ofMinutes(5));
      engine.checkLauncherStatus();
      engine.checkHeartbeats();
    }

    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.LAUNCHING);
    assertThat(engine.queued().reason(sim.id())).contains("Slurm cannot be asked: connect failure");

    // It answers, and the task starts: the sim gets its whole window to report from then.
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.running("Slurm state RUNNING"));
    clock.advance(Duration.ofSeconds(5));
    engine.checkLauncherStatus();
    clock.advance(Duration.ofSeconds(300));
    engine.checkHeartbeats();
    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.LAUNCHING);
    engine.reports().heartbeat(sim.id(), Heartbeat.running(0));
    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.RUNNING);
  }

  @Test
  void launcherThatCannotBeAsked_decidesNothingForASimThatReports() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    engine.reports().heartbeat(sim.id(), Heartbeat.running(0));
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.unknown("Slurm cannot be asked"));

    engine.checkLauncherStatus();
    engine.checkLauncherStatus();

    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.RUNNING);
    assertThat(engine.queued().reason(sim.id())).isEmpty();
  }

  @Test
  void taskEndedWithoutTheFinalReport_failsTheSimWithTheLaunchersWords_onTheSecondPoll() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    engine.reports().heartbeat(sim.id(), Heartbeat.running(0));
    launcher.statuses.put(
        sim.launcherRef(),
        LauncherStatus.killed(
            "Slurm state OUT_OF_MEMORY (OutOfMemory)", FailureClass.OUT_OF_MEMORY));

    engine.checkLauncherStatus();
    assertThat(engine.runs().sim(sim.id()).state()).isEqualTo(SimState.RUNNING);
    engine.checkLauncherStatus();

    Sim failed = engine.runs().sim(sim.id());
    assertThat(failed.state()).isEqualTo(SimState.FAILED);
    assertThat(failed.error())
        .isEqualTo(
            "its batch task "
                + sim.launcherRef()
                + " ended without the sim's final report: Slurm state OUT_OF_MEMORY (OutOfMemory)");
    assertThat(failed.failureClass()).isEqualTo(FailureClass.OUT_OF_MEMORY);
  }

  @Test
  void aSimThatEnded_getsThePeakMemoryTheLaunchersAccountingGivesOnceItHasIt() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.running("Slurm state RUNNING"));
    engine.checkLauncherStatus();
    engine.checkLauncherStatus(); // seen live
    engine.reports().heartbeat(sim.id(), new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.ended("Slurm state COMPLETED"));

    engine.checkLauncherStatus(); // accounting has no figure yet
    assertThat(engine.runs().sim(sim.id()).peakMemoryBytes()).isNull();
    launcher.peaks.put(sim.launcherRef(), 612L * 1024 * 1024);
    engine.checkLauncherStatus();

    assertThat(engine.runs().sim(sim.id()).peakMemoryBytes()).isEqualTo(612L * 1024 * 1024);
  }

  @Test
  void simThatReportedItsOwnFailure_getsAnOutsideEndInFrontOfItsError() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.running("Slurm state RUNNING"));
    engine.checkLauncherStatus();
    engine.reports().heartbeat(sim.id(), new Heartbeat(SimState.FAILED, "cancelled", 143, 0));
    launcher.statuses.put(
        sim.launcherRef(),
        LauncherStatus.killed("Slurm state TIMEOUT (TimeLimit)", FailureClass.TIMED_OUT));

    engine.checkLauncherStatus();

    assertThat(engine.runs().sim(sim.id()).error())
        .isEqualTo("Slurm state TIMEOUT (TimeLimit); the sim reported: cancelled");
    assertThat(engine.runs().sim(sim.id()).failureClass())
        .as("the time limit Slurm imposed, not the SIGTERM the sim saw")
        .isEqualTo(FailureClass.TIMED_OUT);
  }

  @Test
  void simThatReportedItsOwnFailure_keepsItsErrorWhenTheTaskJustEnded() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.running("Slurm state RUNNING"));
    engine.checkLauncherStatus();
    engine.reports().heartbeat(sim.id(), new Heartbeat(SimState.FAILED, "deadlock", 1, 0));
    launcher.statuses.put(sim.launcherRef(), LauncherStatus.ended("Slurm state CANCELLED"));

    engine.checkLauncherStatus();

    assertThat(engine.runs().sim(sim.id()).error()).isEqualTo("deadlock");
  }

  @Test
  void failureClass_comesFromTheStatussType_notFromItsWords() {
    Sim sim = launched(new RunEntry("SM90_H100", 1)).sims().getFirst();
    engine.reports().heartbeat(sim.id(), Heartbeat.running(0));
    // Words that once were parsed, with another class given as a type: the type wins.
    launcher.statuses.put(
        sim.launcherRef(),
        LauncherStatus.killed("Slurm state TIMEOUT (TimeLimit)", FailureClass.KILLED));

    engine.checkLauncherStatus();
    engine.checkLauncherStatus();

    assertThat(engine.runs().sim(sim.id()).failureClass()).isEqualTo(FailureClass.KILLED);
  }

  /** Takes batches, answers statuses from a map, starts nothing. */
  private static final class BatchLauncher implements Launcher {
    final List<List<SimLaunch>> batches = new CopyOnWriteArrayList<>();
    final Map<String, LauncherStatus> statuses = new ConcurrentHashMap<>();
    final Map<String, Long> peaks = new ConcurrentHashMap<>();

    @Override
    public String name() {
      return "batch";
    }

    @Override
    public boolean launchesInBatches() {
      return true;
    }

    @Override
    public List<LaunchResult> launchAll(List<SimLaunch> launches) {
      batches.add(List.copyOf(launches));
      return launches.stream().map(l -> LaunchResult.launched("task-" + l.simId())).toList();
    }

    @Override
    public String launch(SimLaunch launch) {
      throw new AssertionError("a batch launcher gets launchAll calls only");
    }

    @Override
    public Map<String, LauncherStatus> status(Collection<String> refs) {
      return Map.copyOf(statuses);
    }

    @Override
    public Map<String, Long> peakMemory(Collection<String> refs) {
      return Map.copyOf(peaks);
    }

    @Override
    public void stop(String launcherRef) {}
  }
}
