package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.testkit.TestEngines;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schedule of a run already read ({@link Runs#schedule(Run)}, what {@code GET /api/runs/{id}}
 * uses) is the one {@link Runs#schedule(String)} reads anew, and it follows each success.
 */
final class RunScheduleReadTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private Engine engine;

  @BeforeEach
  void start() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    RecordingLauncher launcher = new RecordingLauncher();
    launcher.slots = OptionalInt.of(2);
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, launcher)
                .clock(clock)
                .simCommand(List.of("simulate"))
                .settings(),
            "demo",
            WAIT);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void scheduleOfARunRead_isTheScheduleReadAnew_andFollowsEachSuccess() {
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 5)));
    awaitLaunched(run.id(), 2);
    clock.advance(Duration.ofSeconds(100));
    succeed(launched(run.id()).getFirst().id());
    awaitLaunched(run.id(), 2);

    Run read = engine.runs().get(run.id());
    Map<String, SimSchedule> fromRun = engine.runs().schedule(read);
    Map<String, SimSchedule> readAnew = engine.runs().schedule(run.id());
    // The clock runs on between the two: estimates agree to within that.
    assertThat(fromRun).isNotEmpty().containsOnlyKeys(readAnew.keySet());
    fromRun.forEach(
        (id, schedule) -> {
          SimSchedule other = readAnew.get(id);
          assertThat(schedule.queuePosition()).isEqualTo(other.queuePosition());
          assertThat(schedule.basis())
              .isEqualTo(other.basis())
              .isEqualTo("1 earlier sim of this trace on SM90_H100");
          assertThat(schedule.eta()).isCloseTo(other.eta(), within(Duration.ofSeconds(1)));
        });

    clock.advance(Duration.ofSeconds(10)); // less than the history is kept without a success
    succeed(launched(run.id()).getFirst().id());
    awaitLaunched(run.id(), 2);

    assertThat(engine.runs().schedule(engine.runs().get(run.id())).values())
        .isNotEmpty()
        .allSatisfy(
            schedule ->
                assertThat(schedule.basis())
                    .isEqualTo("2 earlier sims of this trace on SM90_H100"));
  }

  private List<Sim> launched(String runId) {
    return engine.runs().get(runId).sims().stream()
        .filter(sim -> sim.state() == SimState.LAUNCHING || sim.state() == SimState.RUNNING)
        .filter(sim -> sim.launcherRef() != null)
        .toList();
  }

  private void awaitLaunched(String runId, int count) {
    await().atMost(WAIT).until(() -> launched(runId).size() == count);
  }

  private void succeed(String simId) {
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 0));
  }
}
