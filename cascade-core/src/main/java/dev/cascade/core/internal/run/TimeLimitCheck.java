package dev.cascade.core.internal.run;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.TimeLimit;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of the time-limit check: a launched sim whose entry sets a {@code time_limit} and that
 * has run longer than it since its launch fails with {@code timed out after <limit>} and is
 * stopped. It reads the stored sims, so limits hold across a restart too.
 */
public final class TimeLimitCheck implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(TimeLimitCheck.class);

  private final SimRepository sims;
  private final RunRepository runs;
  private final SimMoves moves;
  private final Launches launches;
  private final Clock clock;

  /** Entries of the runs with unfinished sims, read once each: a run's entries never change. */
  private Map<String, List<RunEntry>> entries = new HashMap<>();

  public TimeLimitCheck(
      SimRepository sims, RunRepository runs, SimMoves moves, Launches launches, Clock clock) {
    this.sims = sims;
    this.runs = runs;
    this.moves = moves;
    this.launches = launches;
    this.clock = clock;
  }

  @Override
  public synchronized void run() {
    Instant now = clock.instant();
    Map<String, List<RunEntry>> seen = new HashMap<>();
    for (Sim sim : sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST)) {
      List<RunEntry> runEntries =
          seen.computeIfAbsent(
              sim.runId(),
              id ->
                  entries.containsKey(id)
                      ? entries.get(id)
                      : runs.find(id).map(Run::entries).orElse(List.of()));
      Duration limit = limitOf(runEntries, sim.gpuConfig());
      if (limit == null || sim.launchedAt() == null) {
        continue;
      }
      if (Duration.between(sim.launchedAt(), now).compareTo(limit) >= 0) {
        String error = "timed out after " + TimeLimit.format(limit) + " (its entry's time_limit)";
        if (moves.move(sim.id(), null, SimState.FAILED, Outcome.error(error))) {
          log.warn("sim {} failed: {}", sim.id(), error);
          launches.stopLater(sim.id());
        }
      }
    }
    entries = seen;
  }

  private static Duration limitOf(List<RunEntry> entries, String gpuConfig) {
    for (RunEntry entry : entries) {
      if (entry.name().equals(gpuConfig)) {
        return entry.timeLimit();
      }
    }
    return null;
  }
}
