package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.internal.run.HeartbeatReply;
import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run service and the sim protocol, through the engine that builds them. */
final class RunServiceTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private final List<Engine> opened = new ArrayList<>();
  private RecordingLauncher launcher;
  private Engine engine;

  @BeforeEach
  void startWithAReadyTrace() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    launcher = new RecordingLauncher();
    engine = open(launcher, 8);
    await().atMost(WAIT).until(() -> isReady("demo"));
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Engine::close);
  }

  private Engine open(RecordingLauncher launcher, int maxLaunches) {
    return open(launcher, maxLaunches, Duration.ZERO);
  }

  private Engine open(RecordingLauncher launcher, int maxLaunches, Duration finishedStopDelay) {
    Engine opened =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .clock(clock)
                .maxLaunches(maxLaunches)
                .monitorInterval(Duration.ZERO)
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .finishedStopDelay(finishedStopDelay)
                .simCommand(List.of("simulate", "--fast"))
                .mainUrl("http://127.0.0.1:9999")
                .settings());
    opened.startLaunching("http://127.0.0.1:9999");
    this.opened.add(opened);
    return opened;
  }

  private boolean isReady(String traceId) {
    return engine.traces().find(traceId).map(t -> t.state() == TraceState.READY).orElse(false);
  }

  private Run createDemo(RunEntry... entries) {
    return engine.runs().create("demo", List.of(entries));
  }

  private SimState stateOf(String simId) {
    return engine.runs().sim(simId).state();
  }

  @Test
  void create_writesEverySimPendingAndLaunchesThemWithTheSimContract() {
    Run run = createDemo(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1));

    assertThat(run.id()).startsWith("r_");
    assertThat(run.sims())
        .extracting(Sim::gpuConfig, Sim::replica)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("SM90_H100", 0),
            org.assertj.core.groups.Tuple.tuple("SM90_H100", 1),
            org.assertj.core.groups.Tuple.tuple("SM90_H200", 0));
    assertThat(run.sims())
        .allSatisfy(sim -> assertThat(sim.progress().kernelsTotal()).isEqualTo(3));
    await().atMost(WAIT).until(() -> launcher.launches.size() == 3);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(engine.runs().get(run.id()).sims())
                    .allSatisfy(sim -> assertThat(sim.launcherRef()).isEqualTo("ref-" + sim.id())));

    SimLaunch launch =
        launcher.launches.stream()
            .filter(l -> l.simId().equals(run.sims().get(2).id()))
            .findFirst()
            .orElseThrow();
    assertThat(launch.command()).containsExactly("simulate", "--fast");
    assertThat(launch.environment())
        .containsEntry("CASCADE_MAIN_URL", "http://127.0.0.1:9999")
        .containsEntry("CASCADE_SIM_ID", launch.simId())
        .containsEntry("CASCADE_RUN_ID", run.id())
        .containsEntry("CASCADE_REPLICA", "0")
        .containsEntry("CASCADE_TRACE_ID", "demo")
        .containsEntry("CASCADE_TRACE_DIR", TestTraces.folder(dataDir, "demo").toString())
        .containsEntry("CASCADE_GPU_CONFIG", "SM90_H200")
        .containsEntry("CASCADE_DATA_DIR", dataDir.toAbsolutePath().normalize().toString())
        .containsKey("CASCADE_GPU_CONFIG_DIR")
        .doesNotContainKey("CASCADE_SIM_TOKEN")
        .containsEntry("CASCADE_APP_PATIENCE_S", "600");
    String token = launch.contract().simToken();
    assertThat(engine.reports().isSimToken(launch.simId(), token)).isTrue();
    assertThat(engine.reports().isSimToken(run.sims().get(0).id(), token)).isFalse();
    assertThat(launch.output()).hasFileName(launch.simId() + ".out");
  }

  @Test
  void create_refusesAnUnknownTrace() {
    assertRefused(
        () -> engine.runs().create("nope", List.of(new RunEntry("SM90_H100", 1))),
        ErrorCode.NOT_FOUND,
        "trace_id",
        "nope");
    assertRefused(
        () -> engine.runs().create("../etc", List.of(new RunEntry("SM90_H100", 1))),
        ErrorCode.INVALID,
        "trace_id",
        "../etc");
  }

  @Test
  void create_refusesATraceNotReadyOrASample() throws IOException {
    TestTraces.write(dataDir, "busy", 1, "{\"status\": \"running\"}");
    TestTraces.write(dataDir, "sample", 1, "{\"sample\": true}");
    await().atMost(WAIT).until(() -> engine.traces().find("busy").isPresent() && isReady("sample"));

    assertRefused(
        () -> engine.runs().create("busy", List.of(new RunEntry("SM90_H100", 1))),
        ErrorCode.CONFLICT,
        "trace_id",
        "uploading");
    assertRefused(
        () -> engine.runs().create("sample", List.of(new RunEntry("SM90_H100", 1))),
        ErrorCode.CONFLICT,
        "trace_id",
        "sample");
  }

  @Test
  void create_refusesBadEntries() {
    assertRefused(() -> createDemo(), ErrorCode.INVALID, "entries", "entries is empty");
    assertRefused(
        () -> createDemo(new RunEntry("SM99_NOPE", 1)),
        ErrorCode.INVALID,
        "entries[0].gpu_config",
        "SM99_NOPE");
    assertRefused(
        () -> createDemo(new RunEntry("SM90_H100", 1), new RunEntry("SM80_A100", 1)),
        ErrorCode.INVALID,
        "entries[1].gpu_config",
        "sm_80");
    assertRefused(
        () -> createDemo(new RunEntry("SM90_H100", 1), new RunEntry("SM90_H100", 2)),
        ErrorCode.INVALID,
        "entries[1].gpu_config",
        "more than once");
    assertThatThrownBy(() -> new RunEntry("SM90_H100", 65)).hasMessageContaining("65");
    assertThat(engine.runs().list()).isEmpty();
  }

  private static void assertRefused(
      ThrowingCallable call, ErrorCode code, String field, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.field()).isEqualTo(field);
            })
        .hasMessageContaining(messagePart);
  }

  @Test
  void launch_neverHasMoreThanMaxLaunchesInFlight() {
    launcher.gate = new CountDownLatch(1);

    Run run = createDemo(new RunEntry("SM90_H100", 12), new RunEntry("SM90_H200", 12));

    await().atMost(WAIT).until(() -> launcher.inFlight.get() == 8);
    assertThat(engine.runs().get(run.id()).sims())
        .filteredOn(sim -> sim.state() == SimState.PENDING)
        .hasSize(16);
    launcher.gate.countDown();
    await().atMost(WAIT).until(() -> launcher.launches.size() == 24);
    assertThat(launcher.peakInFlight.get()).isEqualTo(8);
  }

  @Test
  void launch_failureMakesTheSimFailedWithTheReason() {
    launcher.failWith = "no capacity on this machine";

    Run run = createDemo(new RunEntry("SM90_H100", 1));

    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> stateOf(simId) == SimState.FAILED);
    assertThat(engine.runs().sim(simId).error())
        .isEqualTo("launch failed: no capacity on this machine");
    assertThat(engine.runs().get(run.id()).state()).isEqualTo(RunState.FAILED);
  }

  @Test
  void launch_ofSimsWhoseTraceWasDeletedWhileTheyWaited_failsThemSayingTheTraceIsGone()
      throws IOException {
    engine.close();
    RecordingLauncher held = new RecordingLauncher();
    held.gate = new CountDownLatch(1);
    engine = open(held, 1);
    await().atMost(WAIT).until(() -> isReady("demo"));
    Run run = createDemo(new RunEntry("SM90_H100", 3));
    await().atMost(WAIT).until(() -> held.inFlight.get() == 1);

    Path folder = TestTraces.folder(dataDir, "demo");
    try (Stream<Path> files = Files.walk(folder)) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    }
    held.gate.countDown();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(engine.runs().get(run.id()).sims())
                    .filteredOn(sim -> sim.state() == SimState.FAILED)
                    .hasSize(2)
                    .allSatisfy(
                        sim ->
                            assertThat(sim.error())
                                .contains("the trace \"demo\" is gone", folder.toString())
                                .doesNotContain("exit")));
    assertThat(held.launches).hasSize(1);
  }

  @Test
  void heartbeat_movesTheSimAlongItsStatesAndFinishesTheRun() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> stateOf(simId) == SimState.LAUNCHING);

    assertThat(engine.reports().heartbeat(simId, Heartbeat.running(0)))
        .isEqualTo(HeartbeatReply.CONTINUE);
    assertThat(stateOf(simId)).isEqualTo(SimState.RUNNING);
    assertThat(engine.runs().sim(simId).lastHeartbeatAt()).isNotNull();

    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 0));

    assertThat(stateOf(simId)).isEqualTo(SimState.SUCCEEDED);
    assertThat(engine.runs().sim(simId).exitCode()).isZero();
    assertThat(engine.runs().get(run.id()).state()).isEqualTo(RunState.SUCCEEDED);
  }

  @Test
  void finalHeartbeat_waitsUntilEveryChunkIsHeld() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> stateOf(simId) == SimState.LAUNCHING);
    engine.reports().putChunk(simId, 1, "second\n".getBytes());

    HeartbeatReply reply =
        engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 3));

    assertThat(reply.missing()).containsExactly(0L, 2L);
    assertThat(stateOf(simId)).isEqualTo(SimState.RUNNING);
    engine.reports().putChunk(simId, 0, "first\n".getBytes());
    engine.reports().putChunk(simId, 2, "third\n".getBytes());
    assertThat(engine.reports().putChunk(simId, 2, "third\n".getBytes())).isFalse();

    reply = engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 3));

    assertThat(reply.missing()).isEmpty();
    assertThat(stateOf(simId)).isEqualTo(SimState.SUCCEEDED);
  }

  @Test
  void failedHeartbeat_keepsTheSimulatorsReason() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> stateOf(simId) == SimState.LAUNCHING);

    engine.reports().heartbeat(simId, new Heartbeat(SimState.FAILED, null, 139, 0));

    assertThat(engine.runs().sim(simId))
        .satisfies(sim -> assertThat(sim.state()).isEqualTo(SimState.FAILED))
        .satisfies(sim -> assertThat(sim.error()).contains("exit code 139"));
  }

  @Test
  void monitor_losesASilentSimRecoversItAndFinallyFailsIt() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
    engine.reports().heartbeat(simId, Heartbeat.running(0));

    clock.advance(Duration.ofSeconds(59));
    engine.checkHeartbeats();
    assertThat(stateOf(simId)).isEqualTo(SimState.RUNNING);

    clock.advance(Duration.ofSeconds(2));
    engine.checkHeartbeats();
    assertThat(stateOf(simId)).isEqualTo(SimState.LOST);

    engine.reports().heartbeat(simId, Heartbeat.running(0));
    assertThat(stateOf(simId)).isEqualTo(SimState.RUNNING);

    clock.advance(Duration.ofSeconds(61));
    engine.checkHeartbeats();
    assertThat(stateOf(simId)).isEqualTo(SimState.LOST);
    clock.advance(Duration.ofSeconds(540));
    engine.checkHeartbeats();

    assertThat(stateOf(simId)).isEqualTo(SimState.FAILED);
    assertThat(engine.runs().sim(simId).error()).isEqualTo("no heartbeat for 601s");
    await().atMost(WAIT).until(() -> launcher.stops.contains("ref-" + simId));
    assertThat(engine.runs().get(run.id()).state()).isEqualTo(RunState.FAILED);
  }

  @Test
  void monitor_countsARoutineHeartbeatThatIsOnlyInMemoryYet() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
    engine.reports().heartbeat(simId, Heartbeat.running(0)); // a move: written at once
    clock.advance(Duration.ofSeconds(50));
    engine.reports().heartbeat(simId, Heartbeat.running(0)); // routine: held in memory first

    clock.advance(Duration.ofSeconds(20)); // 70 s after the written one, 20 s after the latest
    engine.checkHeartbeats();

    assertThat(stateOf(simId)).isEqualTo(SimState.RUNNING);
  }

  @Test
  void monitor_givesUpOnALaunchThatNeverReports() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);

    clock.advance(Duration.ofSeconds(599));
    engine.checkHeartbeats();
    assertThat(stateOf(simId)).isEqualTo(SimState.LAUNCHING);
    clock.advance(Duration.ofSeconds(2));
    engine.checkHeartbeats();

    assertThat(stateOf(simId)).isEqualTo(SimState.FAILED);
  }

  @Test
  void restart_givesRunningSimsAFullHeartbeatWindowAfterAnOutageLongerThanTheGiveUp() {
    Run run = createDemo(new RunEntry("SM90_H100", 1));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.close();

    clock.advance(Duration.ofMinutes(20)); // the app is down for twice the give-up window
    engine = open(launcher, 8);
    engine.checkHeartbeats();
    assertThat(stateOf(simId)).as("silence while the app was down").isEqualTo(SimState.RUNNING);

    clock.advance(Duration.ofSeconds(61));
    engine.checkHeartbeats();
    assertThat(stateOf(simId)).isEqualTo(SimState.LOST);
    engine.reports().heartbeat(simId, Heartbeat.running(0)); // its retries land
    assertThat(stateOf(simId)).isEqualTo(SimState.RUNNING);
    assertThat(launcher.stops).doesNotContain("ref-" + simId);
  }

  @Test
  void restart_failsSimsWhoseProcessEndedWhileTheAppWasDown_andLeavesLiveOnesAlone() {
    Run run = createDemo(new RunEntry("SM90_H100", 3));
    List<String> ids = run.sims().stream().map(Sim::id).toList();
    await()
        .atMost(WAIT)
        .until(() -> ids.stream().allMatch(id -> engine.runs().sim(id).launcherRef() != null));
    engine.reports().heartbeat(ids.get(1), Heartbeat.running(0));
    engine.close();

    RecordingLauncher after = new RecordingLauncher();
    after.ended.addAll(List.of("ref-" + ids.get(0), "ref-" + ids.get(1)));
    engine = open(after, 8);

    assertThat(engine.runs().get(run.id()).sims())
        .extracting(Sim::state)
        .containsExactly(SimState.FAILED, SimState.FAILED, SimState.LAUNCHING);
    assertThat(engine.runs().sim(ids.get(0)).error())
        .isEqualTo(
            "its process (ref-"
                + ids.get(0)
                + ") ended without reporting its end while Cascade was down");
    assertThat(after.launches).isEmpty();
  }

  @Test
  void close_stopsWhatIsLeftOfFinishedSimsAtOnce_andLeavesRunningOnesRunning() {
    engine.close();
    RecordingLauncher patient = new RecordingLauncher();
    engine =
        open(patient, 8, Duration.ofHours(1)); // a finished sim's grace period outlasts the test
    Run run = createDemo(new RunEntry("SM90_H100", 2));
    List<String> ids = run.sims().stream().map(Sim::id).toList();
    await()
        .atMost(WAIT)
        .until(() -> ids.stream().allMatch(id -> engine.runs().sim(id).launcherRef() != null));
    engine.reports().heartbeat(ids.get(0), new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
    engine.reports().heartbeat(ids.get(1), Heartbeat.running(0));
    assertThat(patient.stops).isEmpty(); // within its grace period

    engine.close();

    assertThat(patient.stops).containsExactly("ref-" + ids.get(0));
  }

  @Test
  void cancel_stopsUnfinishedSimsKeepsFinishedOnesAndIsHarmlessTwice() {
    Run run = createDemo(new RunEntry("SM90_H100", 3));
    List<String> ids = run.sims().stream().map(Sim::id).toList();
    await().atMost(WAIT).until(() -> launcher.launches.size() == 3);
    await()
        .atMost(WAIT)
        .until(() -> ids.stream().allMatch(id -> engine.runs().sim(id).launcherRef() != null));
    engine.reports().heartbeat(ids.get(0), new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
    engine.reports().heartbeat(ids.get(1), Heartbeat.running(0));

    Run cancelled = engine.runs().cancel(run.id());

    assertThat(cancelled.sims())
        .extracting(Sim::state)
        .containsExactly(SimState.SUCCEEDED, SimState.CANCELLED, SimState.CANCELLED);
    assertThat(cancelled.state()).isEqualTo(RunState.PARTIAL);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(launcher.stops).contains("ref-" + ids.get(1), "ref-" + ids.get(2)));
    assertThat(engine.reports().heartbeat(ids.get(1), Heartbeat.running(0)).cancel()).isTrue();
    assertThat(engine.reports().heartbeat(ids.get(0), Heartbeat.running(0)).cancel()).isFalse();

    Run again = engine.runs().cancel(run.id());

    assertThat(again.sims())
        .extracting(Sim::state)
        .isEqualTo(cancelled.sims().stream().map(Sim::state).toList());
  }

  @Test
  void cancel_ofAnUnknownRunIsNotFound() {
    assertRefused(() -> engine.runs().cancel("r_nope"), ErrorCode.NOT_FOUND, "run_id", "r_nope");
  }

  @Test
  void restart_launchesPendingAndHalfLaunchedSimsAndEverySimFinishesExactlyOnce() throws Exception {
    engine.close();
    RecordingLauncher stuck = new RecordingLauncher();
    stuck.gate = new CountDownLatch(1);
    engine = open(stuck, 2);
    await().atMost(WAIT).until(() -> isReady("demo"));
    Run run = createDemo(new RunEntry("SM90_H100", 5));
    await().atMost(WAIT).until(() -> stuck.inFlight.get() == 2);

    engine.close(); // the app goes away mid-launch; nothing is stopped
    RecordingLauncher after = new RecordingLauncher();
    String orphan = stuck.attempts.getFirst(); // its process started, its ref was never stored
    after.running.put(orphan, "ref-orphan");
    engine = open(after, 8);

    // 3 left pending, and 1 of the 2 whose launch call never returned; the other is adopted.
    await().atMost(WAIT).until(() -> after.launches.size() == 4);
    assertThat(after.launches).extracting(SimLaunch::simId).doesNotContain(orphan);
    assertThat(engine.runs().sim(orphan).launcherRef()).isEqualTo("ref-orphan");
    List<Sim> sims = engine.runs().get(run.id()).sims();
    assertThat(sims).extracting(Sim::state).doesNotContain(SimState.PENDING);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(engine.runs().get(run.id()).sims())
                    .allSatisfy(sim -> assertThat(sim.launcherRef()).isNotNull()));
    for (Sim sim : sims) { // every sim reports, as real ones would after the restart
      engine.reports().heartbeat(sim.id(), Heartbeat.running(0));
      engine.reports().heartbeat(sim.id(), new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
      engine.reports().heartbeat(sim.id(), new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
    }

    assertThat(engine.runs().await(run.id(), WAIT).state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(after.launches).extracting(SimLaunch::simId).doesNotHaveDuplicates();
    try (EventStream events = engine.runs().events(run.id(), 0)) {
      List<SimEvent> succeeded = new ArrayList<>();
      for (var event = events.next(Duration.ofMillis(200));
          event.isPresent();
          event = events.next(Duration.ofMillis(200))) {
        if (event.get().data().contains("\"state\":\"succeeded\"")) {
          succeeded.add(event.get());
        }
      }
      assertThat(succeeded).extracting(SimEvent::simId).hasSize(5).doesNotHaveDuplicates();
    }
  }

  @Test
  void events_resumeAfterAnyIdWithoutGapsOrRepeats() throws Exception {
    Run run = createDemo(new RunEntry("SM90_H100", 2));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
    engine.reports().heartbeat(simId, Heartbeat.running(0));

    List<Long> all = new ArrayList<>();
    try (EventStream events = engine.runs().events(run.id(), 0)) {
      for (var e = events.next(Duration.ofMillis(200));
          e.isPresent();
          e = events.next(Duration.ofMillis(200))) {
        all.add(e.get().id());
      }
    }
    assertThat(all).hasSizeGreaterThanOrEqualTo(5).isSorted().doesNotHaveDuplicates();

    try (EventStream resumed = engine.runs().events(run.id(), all.get(2))) {
      assertThat(resumed.next(Duration.ofSeconds(1)))
          .hasValueSatisfying(e -> assertThat(e.id()).isEqualTo(all.get(3)));
      engine.reports().heartbeat(run.sims().get(1).id(), Heartbeat.running(0));
      List<Long> rest = new ArrayList<>();
      for (var e = resumed.next(Duration.ofSeconds(1));
          e.isPresent();
          e = resumed.next(Duration.ofMillis(300))) {
        rest.add(e.get().id());
      }
      assertThat(rest).startsWith(all.subList(4, all.size()).toArray(Long[]::new));
      assertThat(rest).hasSize(all.size() - 4 + 1);
    }
  }
}
