package dev.cascade.core.internal.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The slots of a launcher that runs a fixed number of sims at once (the local one): a sim holds a
 * slot from the start of its launch until it finishes, in any final state; the others wait as
 * {@code pending}, in {@link FairOrder}. A launcher without slots (a cluster with a scheduler of
 * its own) has every sim started at once.
 */
public final class SlotQueue {

  private final OptionalInt slots;
  private final FairOrder waiting = new FairOrder();
  private final Map<String, Runnable> starts = new HashMap<>();
  private final Set<String> holding = new HashSet<>();
  private long queued;
  private int peakHolding;

  /** Slots for a launcher that has {@code slots} ({@link dev.cascade.core.spi.Launcher#slots}). */
  public SlotQueue(OptionalInt slots) {
    this.slots = slots;
  }

  /** How many sims run at once; empty when the launcher's scheduler decides. */
  OptionalInt slots() {
    return slots;
  }

  /** Queues a pending sim; {@code start} runs (without blocking) once it has a slot. */
  void submit(String simId, String runId, String owner, int priority, Runnable start) {
    if (slots.isEmpty()) {
      start.run();
      return;
    }
    synchronized (this) {
      if (holding.contains(simId) || starts.containsKey(simId)) {
        return; // queued or started already
      }
      waiting.add(new QueuedSim(simId, runId, owner, priority, queued++));
      starts.put(simId, start);
    }
    startWhatFits();
  }

  /** A sim an earlier process launched, still unfinished, holds a slot (after a restart). */
  synchronized void hold(String simId) {
    if (slots.isPresent()) {
      holding.add(simId);
      peakHolding = Math.max(peakHolding, holding.size());
    }
  }

  /** The sim finished (or will never start): its slot, or its place in the queue, is freed. */
  void release(String simId) {
    if (slots.isEmpty()) {
      return;
    }
    synchronized (this) {
      if (!holding.remove(simId) && waiting.remove(simId)) {
        starts.remove(simId);
      }
    }
    startWhatFits();
  }

  /** The sims waiting for a slot, the next to start first. */
  synchronized List<QueuedSim> waitingInOrder() {
    return waiting.inOrder();
  }

  /** The sims that hold a slot now. */
  synchronized Set<String> holding() {
    return Set.copyOf(holding);
  }

  /** The most sims that ever held a slot at once. */
  synchronized int peakHolding() {
    return peakHolding;
  }

  private void startWhatFits() {
    List<Runnable> toStart = new ArrayList<>();
    synchronized (this) {
      while (holding.size() < slots.getAsInt() && !waiting.isEmpty()) {
        QueuedSim next = waiting.next();
        holding.add(next.simId());
        toStart.add(starts.remove(next.simId()));
      }
      peakHolding = Math.max(peakHolding, holding.size());
    }
    toStart.forEach(Runnable::run);
  }
}
