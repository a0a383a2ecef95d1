package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.testkit.TestEngines;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both halves of issue 16 together, on a launcher with two slots: a retry's new attempts wait for a
 * slot like any pending sim, and a sim that reuses an earlier result never takes one.
 */
final class QueueRetryReuseTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private RecordingLauncher launcher;
  private Engine engine;

  @BeforeEach
  void startWithTwoSlots() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    launcher = new RecordingLauncher();
    launcher.slots = OptionalInt.of(2);
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, launcher).clock(clock).settings(), "demo", WAIT);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private void end(String simId, SimState state) {
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine
        .reports()
        .heartbeat(simId, new Heartbeat(state, state == SimState.FAILED ? "boom" : null, 0, 0));
  }

  private void awaitAttempts(int count) {
    await().atMost(WAIT).until(() -> launcher.attempts.size() >= count);
  }

  @Test
  void retriedAttempts_waitForASlotLikeAnyPendingSim() {
    Run failing = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)));
    awaitAttempts(2);
    failing.sims().forEach(sim -> end(sim.id(), SimState.FAILED));
    Run busy = engine.runs().create("demo", List.of(new RunEntry("SM90_H200", 2)));
    awaitAttempts(4);

    Run retried = engine.runs().retry(failing.id());

    List<Sim> attempts = retried.latestAttempts();
    assertThat(attempts).extracting(Sim::attempt).containsOnly(2);
    await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> launcher.attempts.size() == 4);
    assertThat(engine.runs().schedule(failing.id()))
        .containsKeys(attempts.get(0).id(), attempts.get(1).id())
        .allSatisfy((id, schedule) -> assertThat(schedule.queuePosition()).isNotNull());

    end(busy.sims().getFirst().id(), SimState.SUCCEEDED);

    awaitAttempts(5);
    assertThat(launcher.attempts.getLast()).isIn(attempts.get(0).id(), attempts.get(1).id());
  }

  @Test
  void reusingSims_takeNoSlot_evenWhenEverySlotIsHeld() {
    Run first = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)));
    awaitAttempts(2);
    first.sims().forEach(sim -> end(sim.id(), SimState.SUCCEEDED));
    engine.runs().create("demo", List.of(new RunEntry("SM90_H200", 2)));
    awaitAttempts(4);

    Run again = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)), true);

    assertThat(again.state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(engine.runs().schedule(again.id())).isEmpty();
    await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> launcher.attempts.size() == 4);
  }
}
