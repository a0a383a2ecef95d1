package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slot queue through the engine: a launcher with slots runs that many sims at once, the rest
 * wait in fair order with their place in the queue, and each gets an estimated finish.
 */
final class QueueTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Set<SimState> HOLDING =
      Set.of(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private final List<Engine> opened = new ArrayList<>();
  private RecordingLauncher launcher;
  private Engine engine;

  @BeforeEach
  void startWithTwoSlots() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    launcher = new RecordingLauncher();
    launcher.slots = OptionalInt.of(2);
    engine = open();
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.traces().find("demo").map(t -> t.state() == TraceState.READY).orElse(false));
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Engine::close);
  }

  private Engine open() {
    Engine next =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .clock(clock)
                .monitorInterval(Duration.ZERO)
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(100))
                .finishedStopDelay(Duration.ZERO)
                .simCommand(List.of("simulate"))
                .mainUrl("http://127.0.0.1:9999")
                .settings());
    next.startLaunching("http://127.0.0.1:9999");
    opened.add(next);
    return next;
  }

  private List<Sim> allSims() {
    return engine.runs().list().stream().flatMap(run -> run.sims().stream()).toList();
  }

  private List<Sim> holding() {
    return allSims().stream().filter(sim -> HOLDING.contains(sim.state())).toList();
  }

  /** Waits for the launched sims to fill the slots, checks no more run, and ends the first. */
  private String finishOne(int expectHolding) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(holding())
                    .hasSize(expectHolding)
                    .allSatisfy(sim -> assertThat(sim.launcherRef()).isNotNull()));
    String simId = holding().getFirst().id();
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
    return simId;
  }

  @Test
  void twelveSimsOnTwoSlots_neverRunMoreThanTwoAndAllSucceed() {
    Run run =
        engine
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 6), new RunEntry("SM90_H200", 6)));

    for (int left = 12; left > 0; left--) {
      finishOne(Math.min(2, left));
      assertThat(holding().size()).isLessThanOrEqualTo(2);
    }

    assertThat(engine.runs().get(run.id()).sims())
        .allSatisfy(sim -> assertThat(sim.state()).isEqualTo(SimState.SUCCEEDED));
    assertThat(launcher.attempts).hasSize(12).doesNotHaveDuplicates();
    assertThat(engine.peakSlotsHeld()).isEqualTo(2);
    assertThat(launcher.peakInFlight.get()).isLessThanOrEqualTo(2);
  }

  @Test
  void aSecondOwnersSingleSim_startsWithinTheFirstThreeSlotOpenings() {
    Run big =
        engine
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H100", 64)), new RunOptions("alice", 0));
    Run single =
        engine
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H200", 1)), new RunOptions("bob", 0));
    String bobs = single.sims().getFirst().id();
    await().atMost(WAIT).until(() -> launcher.attempts.size() == 2);
    assertThat(engine.runs().schedule(single.id()).get(bobs).queuePosition()).isEqualTo(1);
    assertThat(engine.runs().schedule(big.id()).values())
        .extracting(SimSchedule::queuePosition)
        .filteredOn(position -> position != null)
        .hasSize(62)
        .doesNotContain(1);

    for (int opening = 1; opening <= 3 && !launcher.attempts.contains(bobs); opening++) {
      finishOne(2);
      int opened = opening;
      await().atMost(WAIT).until(() -> launcher.attempts.size() == 2 + opened);
    }

    assertThat(launcher.attempts.indexOf(bobs)).isBetween(2, 4);
    assertThat(engine.runs().get(single.id()).owner()).isEqualTo("bob");
  }

  @Test
  void aHigherPriorityRun_goesAheadOfEarlierWaitingSims() {
    engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 4)));
    Run urgent =
        engine
            .runs()
            .create("demo", List.of(new RunEntry("SM90_H200", 1)), new RunOptions("local", 5));
    await().atMost(WAIT).until(() -> launcher.attempts.size() == 2);
    assertThat(engine.runs().schedule(urgent.id()).values())
        .extracting(SimSchedule::queuePosition)
        .containsExactly(1);

    finishOne(2);

    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(launcher.attempts).contains(urgent.sims().getFirst().id()));
    assertThat(launcher.attempts).hasSize(3);
  }

  @Test
  void cancellingAWaitingSim_givesItsPlaceToTheNext() {
    Run first = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 3)));
    Run second = engine.runs().create("demo", List.of(new RunEntry("SM90_H200", 1)));
    await().atMost(WAIT).until(() -> launcher.attempts.size() == 2);

    engine.runs().cancel(first.id());

    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(launcher.attempts).contains(second.sims().getFirst().id()));
    assertThat(launcher.attempts).hasSize(3);
    assertThat(engine.runs().schedule(second.id()).values())
        .allSatisfy(schedule -> assertThat(schedule.queuePosition()).isNull());
  }

  @Test
  void afterARestart_pendingSimsStillWaitForTheSlotsOfSimsStillRunning() {
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 5)));
    await()
        .atMost(WAIT)
        .until(() -> holding().stream().filter(s -> s.launcherRef() != null).count() == 2);
    engine.close();
    opened.remove(engine);
    launcher.attempts.clear();

    engine = open();

    assertThat(engine.runs().schedule(run.id()).values())
        .extracting(SimSchedule::queuePosition)
        .filteredOn(position -> position != null)
        .containsExactlyInAnyOrder(1, 2, 3);
    assertThat(launcher.attempts).isEmpty();
    finishOne(2);
    await().atMost(WAIT).until(() -> launcher.attempts.size() == 1);
    assertThat(holding()).hasSize(2);
  }

  @Test
  void eta_ofAWaitingSimAddsTheSlotsAheadOfItToTheDurationOfEarlierSims() {
    Run first = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    String firstSim = first.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(firstSim).launcherRef() != null);
    assertThat(engine.runs().schedule(first.id()).get(firstSim).eta()).isNull();
    clock.advance(Duration.ofSeconds(100));
    finishOne(1);
    Sim done = engine.runs().sim(firstSim);
    Duration took = Duration.between(done.launchedAt(), done.finishedAt());

    Run second = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 3)));
    await()
        .atMost(WAIT)
        .until(() -> holding().stream().filter(s -> s.launcherRef() != null).count() == 2);
    Instant now = clock.instant();
    Map<String, SimSchedule> schedule = engine.runs().schedule(second.id());

    List<Sim> sims = engine.runs().get(second.id()).sims();
    Sim waiting =
        sims.stream().filter(s -> s.state() == SimState.PENDING).findFirst().orElseThrow();
    for (Sim sim : sims) {
      SimSchedule of = schedule.get(sim.id());
      assertThat(of.basis()).isEqualTo("1 earlier sim of this trace on SM90_H100");
      if (sim.state() != SimState.PENDING) {
        assertThat(of.eta()).isEqualTo(sim.launchedAt().plus(took));
      }
    }
    SimSchedule last = schedule.get(waiting.id());
    assertThat(last.queuePosition()).isEqualTo(1);
    Instant firstFree =
        sims.stream()
            .filter(s -> s.state() != SimState.PENDING)
            .map(s -> s.launchedAt().plus(took))
            .min(Instant::compareTo)
            .orElseThrow();
    assertThat(last.eta()).isEqualTo(firstFree.plus(took)).isAfter(now.plus(took));
  }

  @Test
  void eta_onAConfigWithoutHistory_takesOtherConfigsOfTheTraceScaledByKernelsToDo() {
    Run first = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    String firstSim = first.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(firstSim).launcherRef() != null);
    clock.advance(Duration.ofSeconds(100));
    finishOne(1);
    Sim done = engine.runs().sim(firstSim);
    Duration took = Duration.between(done.launchedAt(), done.finishedAt());

    Run other = engine.runs().create("demo", List.of(new RunEntry("SM90_H200", 1)));
    String simId = other.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
    Instant before = clock.instant();
    SimSchedule schedule = engine.runs().schedule(other.id()).get(simId);
    Instant after = clock.instant();

    assertThat(schedule.basis())
        .isEqualTo("1 earlier sim of this trace on other configs, scaled by kernels done");
    // No kernel done yet: all of the other config's length is still to come.
    assertThat(schedule.eta()).isBetween(before.plus(took), after.plus(took));
  }

  @Test
  void timeLimit_failsASimThatRunsLongerAndStopsIt() {
    Run run =
        engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1, Duration.ofSeconds(30))));
    String simId = run.sims().getFirst().id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.checkTimeLimits();
    assertThat(engine.runs().sim(simId).state()).isEqualTo(SimState.RUNNING);

    clock.advance(Duration.ofSeconds(31));
    engine.checkTimeLimits();

    Sim sim = engine.runs().sim(simId);
    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.error()).startsWith("timed out after 30s");
    await().atMost(WAIT).until(() -> launcher.stops.contains("ref-" + simId));
    assertThat(engine.runs().get(run.id()).entries().getFirst().timeLimit())
        .isEqualTo(Duration.ofSeconds(30));
  }
}
