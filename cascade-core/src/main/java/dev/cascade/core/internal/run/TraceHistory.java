package dev.cascade.core.internal.run;

import dev.cascade.core.internal.store.RunRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How long earlier sims of each trace took ({@link SimDurations}), kept until a sim succeeds: it is
 * read from a trace's newest runs with all their sims, which for runs of hundreds of sims costs
 * more than the rest of a {@code GET /api/runs/{id}}, and only a success changes it. A read older
 * than {@link #FRESH} is done again anyway, in case a success came some other way.
 */
final class TraceHistory {

  /** The longest a trace's history is used without reading it again. */
  static final Duration FRESH = Duration.ofSeconds(30);

  private record Read(SimDurations durations, long successes, Instant at) {}

  private final RunRepository runs;
  private final LongSupplier successes;
  private final Clock clock;
  private final Map<String, Read> byTrace = new ConcurrentHashMap<>();

  /**
   * @param successes how many sims succeeded so far; the history is read again when it changes
   */
  TraceHistory(RunRepository runs, LongSupplier successes, Clock clock) {
    this.runs = runs;
    this.successes = successes;
    this.clock = clock;
  }

  /** The trace's history, as stored once the latest success was committed. */
  SimDurations of(String traceId) {
    long seen = successes.getAsLong();
    Instant now = clock.instant();
    Read read = byTrace.get(traceId);
    if (read != null && read.successes == seen && fresh(read, now)) {
      return read.durations;
    }
    // Only traces read since the latest success stay: no more than are being looked at.
    byTrace.values().removeIf(old -> old.successes != seen || !fresh(old, now));
    SimDurations durations = new SimDurations(runs.findByTrace(traceId, SimDurations.RUNS_READ));
    byTrace.put(traceId, new Read(durations, seen, now));
    return durations;
  }

  private static boolean fresh(Read read, Instant now) {
    return !now.isBefore(read.at) && Duration.between(read.at, now).compareTo(FRESH) < 0;
  }
}
