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
 * its own) has every sim started at once. The sim whose turn it is starts only when its {@link
 * Admission} (memory, {@link MemoryGate}) lets it too; while it may not, the sims behind it wait as
 * well (so a big sim is not passed for ever by small ones), and a sim that may never start is taken
 * out and refused.
 */
public final class SlotQueue {

  /** Whether the sim whose turn it is may start now, besides a free slot. */
  interface Admission {
    /** Lets every sim start. */
    Admission ALWAYS =
        new Admission() {
          @Override
          public Verdict admit(String simId, int running) {
            return Verdict.START;
          }

          @Override
          public void released(String simId) {}
        };

    /** What to do with the sim {@code simId}, with {@code running} sims holding slots. */
    Verdict admit(String simId, int running);

    /** The sim holds no slot any more, or was taken out of the queue. */
    void released(String simId);
  }

  /** What {@link Admission#admit} says: start it, leave it waiting, or refuse it for a reason. */
  record Verdict(boolean start, String refusal) {
    static final Verdict START = new Verdict(true, null);
    static final Verdict WAIT = new Verdict(false, null);

    static Verdict refuse(String reason) {
      return new Verdict(false, reason);
    }
  }

  private record Queued(Runnable start, java.util.function.Consumer<String> refuse) {}

  private final OptionalInt slots;
  private final Admission admission;
  private final FairOrder waiting = new FairOrder();
  private final Map<String, Queued> starts = new HashMap<>();
  private final Set<String> holding = new HashSet<>();
  private long queued;
  private int peakHolding;

  /** Slots for a launcher that has {@code slots} ({@link dev.cascade.core.spi.Launcher#slots}). */
  public SlotQueue(OptionalInt slots) {
    this(slots, Admission.ALWAYS);
  }

  /** Slots whose sims also wait for memory to fit ({@link SimMemory}). */
  public SlotQueue(OptionalInt slots, SimMemory memory) {
    this(slots, memory.admission());
  }

  /** Slots whose sims also wait for {@code admission}. */
  SlotQueue(OptionalInt slots, Admission admission) {
    this.slots = slots;
    this.admission = admission;
  }

  /** How many sims run at once; empty when the launcher's scheduler decides. */
  OptionalInt slots() {
    return slots;
  }

  /** Queues a pending sim; {@code start} runs (without blocking) once it has a slot. */
  void submit(String simId, String runId, String owner, int priority, Runnable start) {
    submit(simId, runId, owner, priority, start, reason -> {});
  }

  /**
   * Queues a pending sim; {@code start} runs (without blocking) once it has a slot and its
   * admission lets it, or {@code refuse} with the reason when its admission never will.
   */
  void submit(
      String simId,
      String runId,
      String owner,
      int priority,
      Runnable start,
      java.util.function.Consumer<String> refuse) {
    if (slots.isEmpty()) {
      start.run();
      return;
    }
    synchronized (this) {
      if (holding.contains(simId) || starts.containsKey(simId)) {
        return; // queued or started already
      }
      waiting.add(new QueuedSim(simId, runId, owner, priority, queued++));
      starts.put(simId, new Queued(start, refuse));
    }
    startWhatFits();
  }

  /** Looks again at whether the waiting sim whose turn it is may start (memory was freed). */
  void recheck() {
    if (slots.isPresent()) {
      startWhatFits();
    }
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
    admission.released(simId);
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
    List<Runnable> toRefuse = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    synchronized (this) {
      while (holding.size() < slots.getAsInt() && !waiting.isEmpty()) {
        String simId = waiting.peek().simId();
        Verdict verdict = admission.admit(simId, holding.size());
        if (verdict.refusal() != null) {
          waiting.remove(simId);
          Queued queued = starts.remove(simId);
          toRefuse.add(() -> queued.refuse().accept(verdict.refusal()));
          refused.add(simId);
          continue;
        }
        if (!verdict.start()) {
          break; // the sims behind it wait too: it goes first once memory is free
        }
        QueuedSim next = waiting.next();
        holding.add(next.simId());
        toStart.add(starts.remove(next.simId()).start());
      }
      peakHolding = Math.max(peakHolding, holding.size());
    }
    refused.forEach(admission::released);
    toRefuse.forEach(Runnable::run);
    toStart.forEach(Runnable::run);
  }
}
