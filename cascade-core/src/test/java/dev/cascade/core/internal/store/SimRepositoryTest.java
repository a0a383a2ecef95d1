package dev.cascade.core.internal.store;

import static dev.cascade.core.internal.store.StoreFixtures.T0;
import static dev.cascade.core.internal.store.StoreFixtures.newRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.SimStateMachine;
import dev.cascade.core.internal.Ids;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class SimRepositoryTest {

  @TempDir Path dataDir;

  private final StoreFixtures.MutableClock clock = new StoreFixtures.MutableClock(T0);
  private final Ids ids = new Ids(clock);
  private Database database;
  private RunRepository runs;
  private SimRepository sims;
  private Run run;
  private String simId;

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
    runs = new RunRepository(database);
    sims = new SimRepository(database, clock);
    run = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 3));
    runs.insert(run);
    simId = run.sims().get(0).id();
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void find_returnsTheStoredSim() {
    assertThat(sims.find(simId)).contains(run.sims().get(0));
  }

  @Test
  void find_returnsEmptyForAnUnknownSim() {
    assertThat(sims.find("s_00000000000000000000000000")).isEmpty();
  }

  @Test
  void transition_movesAlongSimTransitions() {
    assertThat(sims.transition(simId, SimState.LAUNCHING)).isTrue();
    assertThat(sims.transition(simId, SimState.RUNNING)).isTrue();
    assertThat(sims.transition(simId, SimState.LOST)).isTrue();
    assertThat(sims.transition(simId, SimState.RUNNING)).isTrue();

    Sim sim = sims.find(simId).orElseThrow();
    assertThat(sim.state()).isEqualTo(SimState.RUNNING);
    assertThat(sim.finishedAt()).isNull();
  }

  @ParameterizedTest
  @EnumSource(SimState.class)
  void transition_refusesMoveOutsideSimTransitions(SimState to) {
    // From pending only launching, failed and cancelled are allowed.
    boolean allowed = to == SimState.LAUNCHING || to == SimState.FAILED || to == SimState.CANCELLED;

    assertThat(sims.transition(simId, to)).isEqualTo(allowed);
    assertThat(sims.find(simId).orElseThrow().state()).isEqualTo(allowed ? to : SimState.PENDING);
  }

  @Test
  void transition_refusesEveryMoveOutOfAFinishedState() {
    sims.transition(simId, SimState.LAUNCHING);
    sims.transition(simId, SimState.SUCCEEDED, new Outcome(null, 0));
    Sim finished = sims.find(simId).orElseThrow();

    for (SimState to : SimState.values()) {
      assertThat(sims.transition(simId, to, Outcome.error("late"))).as(to.wireName()).isFalse();
    }

    assertThat(sims.find(simId)).contains(finished);
  }

  @Test
  void transition_followsSimStateMachineForEveryPair() {
    // Bring one sim of a fresh run into each state along allowed moves, then try every move.
    for (SimState from : SimState.values()) {
      for (SimState to : SimState.values()) {
        Run fresh = newRun(ids, T0, "demo", new RunEntry("SM90_H100", 1));
        runs.insert(fresh);
        String id = fresh.sims().get(0).id();
        for (SimState step : pathTo(from)) {
          assertThat(sims.transition(id, step)).as("step to %s", step).isTrue();
        }

        boolean moved = sims.transition(id, to);

        assertThat(moved).as("%s -> %s", from, to).isEqualTo(SimStateMachine.allows(from, to));
        assertThat(sims.find(id).orElseThrow().state()).isEqualTo(moved ? to : from);
      }
    }
  }

  @Test
  void transition_withExpectedFrom_movesOnlyFromThatState() {
    sims.transition(simId, SimState.LAUNCHING);

    assertThat(sims.transition(simId, SimState.PENDING, SimState.FAILED, Outcome.error("x")))
        .isFalse();
    assertThat(sims.find(simId).orElseThrow().state()).isEqualTo(SimState.LAUNCHING);
    assertThat(sims.find(simId).orElseThrow().error()).isNull();

    assertThat(sims.transition(simId, SimState.LAUNCHING, SimState.RUNNING, Outcome.NONE)).isTrue();
    assertThat(sims.find(simId).orElseThrow().state()).isEqualTo(SimState.RUNNING);
  }

  @Test
  void transition_toAFinishedState_stampsFinishedAtAndStoresTheOutcome() {
    sims.transition(simId, SimState.LAUNCHING);
    sims.transition(simId, SimState.RUNNING);
    Instant later = T0.plusSeconds(90).plusNanos(120_000_000);
    clock.set(later);

    assertThat(sims.transition(simId, SimState.FAILED, new Outcome("exit code 3", 3))).isTrue();

    Sim sim = sims.find(simId).orElseThrow();
    assertThat(sim.state()).isEqualTo(SimState.FAILED);
    assertThat(sim.finishedAt()).isEqualTo(later);
    assertThat(sim.error()).isEqualTo("exit code 3");
    assertThat(sim.exitCode()).isEqualTo(3);
  }

  @Test
  void transition_refused_storesNoOutcome() {
    assertThat(sims.transition(simId, SimState.SUCCEEDED, new Outcome("boom", 1))).isFalse();

    Sim sim = sims.find(simId).orElseThrow();
    assertThat(sim.error()).isNull();
    assertThat(sim.exitCode()).isNull();
    assertThat(sim.finishedAt()).isNull();
  }

  @Test
  void transition_ofAnUnknownSim_isNotFound() {
    assertThatThrownBy(() -> sims.transition("s_00000000000000000000000000", SimState.LAUNCHING))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("s_00000000000000000000000000")
        .extracting(e -> ((CascadeException) e).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void transition_racingFromManyThreads_movesExactlyOnce() throws Exception {
    int threads = 16;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      for (int i = 0; i < threads; i++) {
        SimState to = i % 2 == 0 ? SimState.LAUNCHING : SimState.CANCELLED;
        Callable<Boolean> move =
            () -> {
              start.await();
              return sims.transition(simId, SimState.PENDING, to, Outcome.NONE);
            };
        results.add(pool.submit(move));
      }
      start.countDown();
      int moved = 0;
      for (Future<Boolean> result : results) {
        moved += result.get() ? 1 : 0;
      }
      assertThat(moved).isEqualTo(1);
    }
    assertThat(sims.find(simId).orElseThrow().state()).isIn(SimState.LAUNCHING, SimState.CANCELLED);
  }

  @Test
  void recordLaunch_storesLauncherNameRefAndTime() {
    Instant launchedAt = T0.plusMillis(1234);
    sims.transition(simId, SimState.LAUNCHING);

    sims.recordLaunch(simId, "local", "4242", launchedAt);

    Sim sim = sims.find(simId).orElseThrow();
    assertThat(sim.launcherRef()).isEqualTo("4242");
    assertThat(sim.launchedAt()).isEqualTo(launchedAt);
    assertThat(sim.state()).isEqualTo(SimState.LAUNCHING);
    assertThat(sim.launcherName()).isEqualTo("local");
    assertThat(sims.find(run.sims().get(1).id()).orElseThrow().launcherName()).isNull();
  }

  @Test
  void recordLaunch_ofAnUnknownSim_isNotFound() {
    assertThatThrownBy(() -> sims.recordLaunch("s_x", "local", "1", T0))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"s_x\"");
  }

  @Test
  void recordHeartbeat_stampsTheClockAndOnlyMovesForward() {
    Instant first = T0.plusSeconds(10);
    clock.set(first);
    sims.recordHeartbeat(simId);
    assertThat(sims.find(simId).orElseThrow().lastHeartbeatAt()).isEqualTo(first);

    // Sub-second times must compare as times: "...:12Z" would sort after "...:12.5Z" as text.
    Instant later = T0.plusSeconds(12);
    clock.set(later);
    sims.recordHeartbeat(simId);
    clock.set(T0.plusSeconds(11).plusMillis(500));
    sims.recordHeartbeat(simId);

    assertThat(sims.find(simId).orElseThrow().lastHeartbeatAt()).isEqualTo(later);
  }

  @Test
  void recordHeartbeat_ofAnUnknownSim_isNotFound() {
    assertThatThrownBy(() -> sims.recordHeartbeat("s_gone"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"s_gone\"");
  }

  @Test
  void findInStates_returnsTheSimsInThoseStatesOldestFirst() {
    Run other = newRun(ids, T0, "demo", new RunEntry("SM90_H200", 1));
    runs.insert(other);
    List<Sim> all = new ArrayList<>(run.sims());
    all.addAll(other.sims());
    sims.transition(all.get(0).id(), SimState.LAUNCHING);
    sims.transition(all.get(0).id(), SimState.RUNNING);
    sims.transition(all.get(1).id(), SimState.CANCELLED);
    sims.transition(all.get(3).id(), SimState.LAUNCHING);

    assertThat(sims.findInStates(SimState.PENDING))
        .extracting(Sim::id)
        .containsExactly(all.get(2).id());
    assertThat(sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST))
        .extracting(Sim::id)
        .containsExactly(all.get(0).id(), all.get(3).id());
    assertThat(sims.findInStates(SimState.SUCCEEDED)).isEmpty();
  }

  @Test
  void findInStates_refusesNoStates() {
    assertThatThrownBy(() -> sims.findInStates())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one");
  }

  /** Allowed moves from pending to {@code state}. */
  private static List<SimState> pathTo(SimState state) {
    return switch (state) {
      case PENDING -> List.of();
      case LAUNCHING -> List.of(SimState.LAUNCHING);
      case RUNNING -> List.of(SimState.LAUNCHING, SimState.RUNNING);
      case LOST -> List.of(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST);
      case SUCCEEDED -> List.of(SimState.LAUNCHING, SimState.SUCCEEDED);
      case FAILED -> List.of(SimState.FAILED);
      case CANCELLED -> List.of(SimState.CANCELLED);
    };
  }
}
