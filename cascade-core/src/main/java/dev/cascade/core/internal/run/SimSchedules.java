package dev.cascade.core.internal.run;

import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Where a run's unfinished sims stand: each waiting sim's place in the slot queue, and every
 * unfinished sim's estimated finish. A running sim is expected to take as long as earlier succeeded
 * sims of its trace and config (or, with none, its share of kernels still to do of what other
 * configs took); a waiting sim starts when the slots ahead of it free up, in queue order. What
 * earlier sims took is read again only once a sim succeeded ({@link TraceHistory}).
 */
final class SimSchedules {

  private final SlotQueue slots;
  private final SimRepository sims;
  private final RunRepository runs;
  private final Clock clock;
  private final TraceHistory history;

  /**
   * @param successes how many sims succeeded so far ({@link SimMoves#successes}): the history of
   *     earlier sims is read again when it changes
   */
  SimSchedules(
      SlotQueue slots,
      SimRepository sims,
      RunRepository runs,
      Clock clock,
      LongSupplier successes) {
    this.slots = slots;
    this.sims = sims;
    this.runs = runs;
    this.clock = clock;
    this.history = new TraceHistory(runs, successes, clock);
  }

  /** The schedule of every unfinished sim of {@code run}, by sim id. */
  Map<String, SimSchedule> of(Run run) {
    Instant now = clock.instant();
    if (run.sims().stream().allMatch(sim -> sim.state().isFinished())) {
      return Map.of();
    }
    List<Sim> unfinished =
        sims.findInStates(SimState.PENDING, SimState.LAUNCHING, SimState.RUNNING, SimState.LOST);
    Set<String> runIds = new HashSet<>();
    unfinished.forEach(sim -> runIds.add(sim.runId()));
    Map<String, String> traceOf = runs.traceIdsOf(runIds);
    Map<String, SimDurations> history = new HashMap<>();
    Map<String, Sim> byId = new LinkedHashMap<>();
    unfinished.forEach(sim -> byId.put(sim.id(), sim));

    Map<String, SimSchedule> schedules = new LinkedHashMap<>();
    PriorityQueue<Instant> slotsFree = new PriorityQueue<>();
    for (Sim sim : unfinished) {
      if (sim.state() == SimState.PENDING) {
        continue;
      }
      Estimate estimate = running(sim, expected(sim, traceOf, history), now);
      if (estimate != null) {
        slotsFree.add(estimate.eta);
      }
      if (sim.runId().equals(run.id())) {
        schedules.put(sim.id(), schedule(sim.id(), null, estimate));
      }
    }
    int free = slots.slots().isPresent() ? slots.slots().getAsInt() - slots.holding().size() : 0;
    for (int i = 0; i < free; i++) {
      slotsFree.add(now);
    }
    int position = 0;
    Set<String> queued = new HashSet<>();
    for (QueuedSim waiting : slots.waitingInOrder()) {
      position++;
      queued.add(waiting.simId());
      Sim sim = byId.get(waiting.simId());
      Instant start = slotsFree.poll();
      Estimate estimate = null;
      if (sim != null && start != null) {
        SimDurations.Expected expected = expected(sim, traceOf, history);
        if (expected != null) {
          estimate = new Estimate(start.plus(expected.duration()), expected.basis());
          slotsFree.add(estimate.eta);
        }
      }
      if (waiting.runId().equals(run.id())) {
        schedules.put(waiting.simId(), schedule(waiting.simId(), position, estimate));
      }
    }
    // Pending sims that wait for no slot (a launcher without slots) launch at once.
    for (Sim sim : run.sims()) {
      if (sim.state() == SimState.PENDING && !queued.contains(sim.id())) {
        SimDurations.Expected expected = expected(sim, traceOf, history);
        Estimate estimate =
            expected == null ? null : new Estimate(now.plus(expected.duration()), expected.basis());
        schedules.put(sim.id(), schedule(sim.id(), null, estimate));
      }
    }
    return schedules;
  }

  private SimDurations.Expected expected(
      Sim sim, Map<String, String> traceOf, Map<String, SimDurations> history) {
    String traceId = traceOf.get(sim.runId());
    if (traceId == null) {
      return null;
    }
    return history.computeIfAbsent(traceId, this.history::of).expected(sim.gpuConfig());
  }

  /** A launched sim's finish: its expected length from its launch, or by its kernels to do. */
  private static Estimate running(Sim sim, SimDurations.Expected expected, Instant now) {
    Instant launched = sim.launchedAt() != null ? sim.launchedAt() : now;
    Duration elapsed = Duration.between(launched, now);
    int done = sim.progress().kernelsDone();
    int total = sim.progress().kernelsTotal();
    if (expected != null && expected.sameConfig()) {
      Instant eta = launched.plus(expected.duration());
      if (eta.isAfter(now) || done == 0 || total <= done) {
        return new Estimate(eta.isAfter(now) ? eta : now, expected.basis());
      }
    } else if (expected != null && total > 0) {
      Duration left = expected.duration().multipliedBy(Math.max(0, total - done)).dividedBy(total);
      return new Estimate(now.plus(left), expected.basis() + ", scaled by kernels done");
    }
    if (done > 0 && total > done) {
      Duration left = elapsed.multipliedBy(total - done).dividedBy(done);
      return new Estimate(now.plus(left), "this sim's pace so far");
    }
    return null;
  }

  private static SimSchedule schedule(String simId, Integer position, Estimate estimate) {
    return new SimSchedule(
        simId,
        position,
        estimate == null ? null : estimate.eta,
        estimate == null ? null : estimate.basis);
  }

  private record Estimate(Instant eta, String basis) {}
}
