package dev.cascade.core.internal.store;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.internal.Ids;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Shared fixtures for the store tests: a clock the test moves, and new runs with their sims. */
final class StoreFixtures {

  static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");

  private StoreFixtures() {}

  /** A new run on {@code traceId} with a pending sim per replica of each entry, in entry order. */
  static Run newRun(Ids ids, Instant now, String traceId, RunEntry... entries) {
    String runId = ids.newRunId();
    List<Sim> sims = new ArrayList<>();
    for (RunEntry entry : entries) {
      for (int replica = 0; replica < entry.count(); replica++) {
        sims.add(Sim.pending(ids.newSimId(), runId, entry.gpuConfig(), replica, now));
      }
    }
    return new Run(runId, traceId, List.of(entries), now, sims);
  }

  /** A clock that stands still until the test moves it. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
      this.now = start;
    }

    void set(Instant instant) {
      now = instant;
    }

    void advanceMillis(long millis) {
      now = now.plusMillis(millis);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the test clock is UTC only");
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
