package dev.cascade.core.internal.run;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * The order waiting sims get slots in: the highest priority first; among equals, the owner served
 * least recently, then that owner's run served least recently, then the run's sims in the order
 * they were queued. So one person's 256-sim batch takes turns with another's single sim instead of
 * going first in full. Not thread-safe: {@link SlotQueue} guards it.
 */
final class FairOrder {

  /** Priority (highest first) to owner to run to its waiting sims, in queue order. */
  private final TreeMap<Integer, Map<String, Map<String, ArrayDeque<QueuedSim>>>> waiting =
      new TreeMap<>(Comparator.reverseOrder());

  private final Map<String, QueuedSim> bySimId = new HashMap<>();

  /**
   * When each owner and each run with waiting sims last got a slot (a count of picks); absent:
   * never. Owners are few and kept; a run is forgotten once none of its sims waits.
   */
  private final Map<String, Long> ownerServed = new HashMap<>();

  private final Map<String, Long> runServed = new HashMap<>();
  private long picks;

  void add(QueuedSim sim) {
    if (bySimId.putIfAbsent(sim.simId(), sim) != null) {
      return;
    }
    waiting
        .computeIfAbsent(sim.priority(), p -> new LinkedHashMap<>())
        .computeIfAbsent(sim.owner(), o -> new LinkedHashMap<>())
        .computeIfAbsent(sim.runId(), r -> new ArrayDeque<>())
        .add(sim);
  }

  /** Takes the sim out of the queue; false when it was not waiting. */
  boolean remove(String simId) {
    QueuedSim sim = bySimId.remove(simId);
    if (sim == null) {
      return false;
    }
    Map<String, Map<String, ArrayDeque<QueuedSim>>> owners = waiting.get(sim.priority());
    Map<String, ArrayDeque<QueuedSim>> runs = owners.get(sim.owner());
    ArrayDeque<QueuedSim> sims = runs.get(sim.runId());
    sims.remove(sim);
    prune(sim, owners, runs, sims);
    return true;
  }

  boolean isEmpty() {
    return bySimId.isEmpty();
  }

  int size() {
    return bySimId.size();
  }

  /** The sim whose turn it is, left waiting. */
  QueuedSim peek() {
    if (waiting.isEmpty()) {
      throw new NoSuchElementException("no sim is waiting");
    }
    Map<String, Map<String, ArrayDeque<QueuedSim>>> owners = waiting.firstEntry().getValue();
    String owner = leastRecentlyServed(owners, ownerServed, FairOrder::firstSeqOfOwner);
    Map<String, ArrayDeque<QueuedSim>> runs = owners.get(owner);
    String run = leastRecentlyServed(runs, runServed, sims -> sims.getFirst().seq());
    return runs.get(run).getFirst();
  }

  /** Takes the sim whose turn it is. */
  QueuedSim next() {
    if (waiting.isEmpty()) {
      throw new NoSuchElementException("no sim is waiting");
    }
    Map<String, Map<String, ArrayDeque<QueuedSim>>> owners = waiting.firstEntry().getValue();
    String owner = leastRecentlyServed(owners, ownerServed, FairOrder::firstSeqOfOwner);
    Map<String, ArrayDeque<QueuedSim>> runs = owners.get(owner);
    String run = leastRecentlyServed(runs, runServed, sims -> sims.getFirst().seq());
    ArrayDeque<QueuedSim> sims = runs.get(run);
    QueuedSim next = sims.removeFirst();
    bySimId.remove(next.simId());
    long pick = picks++;
    ownerServed.put(owner, pick);
    runServed.put(run, pick);
    prune(next, owners, runs, sims);
    return next;
  }

  /** Every waiting sim in the order {@link #next} would give them if nothing changed. */
  List<QueuedSim> inOrder() {
    FairOrder copy = new FairOrder();
    bySimId.values().stream().sorted(Comparator.comparingLong(QueuedSim::seq)).forEach(copy::add);
    copy.ownerServed.putAll(ownerServed);
    copy.runServed.putAll(runServed);
    copy.picks = picks;
    List<QueuedSim> order = new ArrayList<>(bySimId.size());
    while (!copy.isEmpty()) {
      order.add(copy.next());
    }
    return order;
  }

  /** The key whose last pick is oldest (never picked first), ties to the earliest queued. */
  private static <V> String leastRecentlyServed(
      Map<String, V> candidates,
      Map<String, Long> served,
      java.util.function.ToLongFunction<V> firstSeq) {
    String best = null;
    long bestServed = 0;
    long bestSeq = 0;
    for (Map.Entry<String, V> candidate : candidates.entrySet()) {
      long lastServed = served.getOrDefault(candidate.getKey(), -1L);
      long seq = firstSeq.applyAsLong(candidate.getValue());
      if (best == null || lastServed < bestServed || (lastServed == bestServed && seq < bestSeq)) {
        best = candidate.getKey();
        bestServed = lastServed;
        bestSeq = seq;
      }
    }
    return best;
  }

  private static long firstSeqOfOwner(Map<String, ArrayDeque<QueuedSim>> runs) {
    return runs.values().stream().mapToLong(sims -> sims.getFirst().seq()).min().orElseThrow();
  }

  private void prune(
      QueuedSim sim,
      Map<String, Map<String, ArrayDeque<QueuedSim>>> owners,
      Map<String, ArrayDeque<QueuedSim>> runs,
      ArrayDeque<QueuedSim> sims) {
    if (sims.isEmpty()) {
      runs.remove(sim.runId());
      runServed.remove(sim.runId()); // a run's sims are queued together: it is done waiting
    }
    if (runs.isEmpty()) {
      owners.remove(sim.owner());
    }
    if (owners.isEmpty()) {
      waiting.remove(sim.priority());
    }
  }
}
