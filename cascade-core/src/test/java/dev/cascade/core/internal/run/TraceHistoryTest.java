package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceHistoryTest {

  private static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");

  @TempDir Path dir;
  private final MovableClock clock = new MovableClock();
  private final AtomicLong successes = new AtomicLong();
  private Database database;
  private SimRepository sims;
  private TraceHistory history;
  private List<Sim> run;

  @BeforeEach
  void open() {
    database = Database.open(dir.resolve("cascade.db"));
    sims = new SimRepository(database, clock);
    RunRepository runs = new RunRepository(database);
    run =
        List.of(
            Sim.pending("s_1", "r_1", "SM90_H100", 0, 3, T0),
            Sim.pending("s_2", "r_1", "SM90_H100", 1, 3, T0));
    runs.insert(new Run("r_1", "t1", List.of(new RunEntry("SM90_H100", 2)), T0, run, "me", 0));
    history = new TraceHistory(runs, successes::get, clock);
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void of_isReadAgainOnceASimSucceeded_andNotBefore() {
    assertThat(history.of("t1").expected("SM90_H100")).isNull();

    succeed("s_1", Duration.ofSeconds(10)); // less than FRESH
    // Stored, but no success was counted yet: the history read before still holds.
    assertThat(history.of("t1").expected("SM90_H100")).isNull();

    successes.incrementAndGet();
    SimDurations.Expected expected = history.of("t1").expected("SM90_H100");
    assertThat(expected.duration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(expected.basis()).isEqualTo("1 earlier sim of this trace on SM90_H100");
  }

  @Test
  void of_isReadAgainWhenOlderThanFresh_evenWithoutACountedSuccess() {
    assertThat(history.of("t1").expected("SM90_H100")).isNull();
    succeed("s_1", Duration.ofSeconds(100));

    clock.now = clock.now.plus(TraceHistory.FRESH);

    assertThat(history.of("t1").expected("SM90_H100").duration())
        .isEqualTo(Duration.ofSeconds(100));
  }

  /** Launches the sim now and lets it succeed {@code took} later (the clock moves on). */
  private void succeed(String simId, Duration took) {
    sims.recordLaunch(simId, "test", "test:" + simId, clock.instant());
    sims.transition(simId, SimState.LAUNCHING);
    sims.transition(simId, SimState.RUNNING);
    clock.now = clock.now.plus(took);
    sims.transition(simId, SimState.SUCCEEDED);
  }

  private static final class MovableClock extends Clock {
    volatile Instant now = T0;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
