package dev.cascade.core.internal.run;

import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.SimSchedule;
import dev.cascade.core.SimState;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Where a run's unfinished sims stand: each waiting sim's place in the slot queue, and every
 * unfinished sim's estimated finish. A running sim is expected to take as long as earlier succeeded
 * sims of its trace and config (or, with none, its share of work still to do of what other configs
 * took, or with no history at all, its own pace so far); its share of work is counted in the
 * trace's warp instructions ({@link WorkDone}) where the trace has them, else in kernels. A waiting
 * sim starts when the slots ahead of it free up, in queue order. What earlier sims took is read
 * again only once a sim succeeded ({@link TraceHistory}).
 */
final class SimSchedules {

  private final SlotQueue slots;
  private final SimRepository sims;
  private final RunRepository runs;
  private final Clock clock;
  private final TraceHistory history;
  private final Function<String, List<TraceKernel>> traceKernels;

  /**
   * @param successes how many sims succeeded so far ({@link SimMoves#successes}): the history of
   *     earlier sims is read again when it changes
   * @param traceKernels a trace's kernels with their warp instruction counts, by trace id; empty
   *     when the trace is gone
   */
  SimSchedules(
      SlotQueue slots,
      SimRepository sims,
      RunRepository runs,
      Clock clock,
      LongSupplier successes,
      Function<String, List<TraceKernel>> traceKernels) {
    this.traceKernels = traceKernels;
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
    Map<String, List<TraceKernel>> kernelsOf = new HashMap<>();
    Map<String, Sim> byId = new LinkedHashMap<>();
    unfinished.forEach(sim -> byId.put(sim.id(), sim));

    Map<String, SimSchedule> schedules = new LinkedHashMap<>();
    PriorityQueue<Instant> slotsFree = new PriorityQueue<>();
    for (Sim sim : unfinished) {
      if (sim.state() == SimState.PENDING) {
        continue;
      }
      Estimate estimate =
          running(sim, expected(sim, traceOf, history), () -> work(sim, traceOf, kernelsOf), now);
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

  /** What the sim has done of its trace's warp instructions; null when they are not known. */
  private WorkDone work(
      Sim sim, Map<String, String> traceOf, Map<String, List<TraceKernel>> kernelsOf) {
    String traceId = traceOf.get(sim.runId());
    if (traceId == null) {
      return null;
    }
    List<TraceKernel> kernels = kernelsOf.computeIfAbsent(traceId, traceKernels);
    return WorkDone.of(
            kernels, sim.kernels(), sim.progress().kernelsDone(), sim.progress().kernelsTotal())
        .orElse(null);
  }

  /**
   * A launched sim's finish: its expected length from its launch; with history of other configs
   * only, that length scaled by its share of work to do; with none, its own pace so far. Work is
   * counted in warp instructions when {@code work} is known, else in kernels.
   */
  static Estimate running(Sim sim, SimDurations.Expected expected, WorkDone work, Instant now) {
    return running(sim, expected, () -> work, now);
  }

  /**
   * {@link #running(Sim, SimDurations.Expected, WorkDone, Instant)} asking {@code workOf} (a read
   * of the trace) only when the estimate needs it.
   */
  private static Estimate running(
      Sim sim, SimDurations.Expected expected, Supplier<WorkDone> workOf, Instant now) {
    Instant launched = sim.launchedAt() != null ? sim.launchedAt() : now;
    Duration elapsed = Duration.between(launched, now);
    int done = sim.progress().kernelsDone();
    int total = sim.progress().kernelsTotal();
    boolean sameConfig = expected != null && expected.sameConfig();
    if (sameConfig) {
      Instant eta = launched.plus(expected.duration());
      if (eta.isAfter(now) || done == 0 || total <= done) {
        return new Estimate(eta.isAfter(now) ? eta : now, expected.basis());
      }
    }
    WorkDone work = done > 0 || expected != null && !sameConfig ? workOf.get() : null;
    if (expected != null && !sameConfig && work != null) {
      Duration left = scaled(expected.duration(), work.left(), work.total());
      return new Estimate(
          now.plus(left), expected.basis() + ", scaled by warp instructions still to do");
    } else if (expected != null && !sameConfig && total > 0) {
      Duration left = expected.duration().multipliedBy(Math.max(0, total - done)).dividedBy(total);
      return new Estimate(now.plus(left), expected.basis() + ", scaled by kernels done");
    }
    if (work != null && work.done() > 0 && work.left() > 0 && elapsed.toMillis() > 0) {
      double perSecond = work.done() / (elapsed.toNanos() / 1e9);
      return new Estimate(
          now.plus(scaled(elapsed, work.left(), work.done())),
          "this sim's pace: "
              + rate(perSecond)
              + " warp instructions/s over "
              + done
              + " of "
              + total
              + " kernels");
    }
    if (done > 0 && total > done) {
      Duration left = elapsed.multipliedBy(total - done).dividedBy(done);
      return new Estimate(
          now.plus(left), "this sim's pace so far: " + done + " of " + total + " kernels");
    }
    return null;
  }

  /** {@code duration * numerator / denominator}, to the nanosecond. */
  private static Duration scaled(Duration duration, long numerator, long denominator) {
    return Duration.ofNanos(
        BigInteger.valueOf(duration.toNanos())
            .multiply(BigInteger.valueOf(numerator))
            .divide(BigInteger.valueOf(denominator))
            .longValueExact());
  }

  /** {@code 812 k}, {@code 1.4 M}: a rate as a reader takes it in. */
  static String rate(double perSecond) {
    if (perSecond >= 1e6) {
      return String.format(Locale.ROOT, "%.1f M", perSecond / 1e6);
    }
    if (perSecond >= 1e3) {
      return String.format(Locale.ROOT, "%.0f k", perSecond / 1e3);
    }
    return String.format(Locale.ROOT, "%.0f", perSecond);
  }

  private static SimSchedule schedule(String simId, Integer position, Estimate estimate) {
    return new SimSchedule(
        simId,
        position,
        estimate == null ? null : estimate.eta,
        estimate == null ? null : estimate.basis);
  }

  record Estimate(Instant eta, String basis) {}
}
