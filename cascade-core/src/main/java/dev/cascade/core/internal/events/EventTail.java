package dev.cascade.core.internal.events;

import dev.cascade.core.SimEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The newest events of every run, read from the table once per change and shared by every stream
 * that is caught up: N clients watching runs cost one query per commit, not N. A stream further
 * behind than the tail holds (a replay from an old id) reads the table itself until it catches up.
 * Bounded: the oldest events are dropped past {@link #CAPACITY}.
 */
final class EventTail {

  /** Events kept; a stream more than this many events behind reads the table. */
  static final int CAPACITY = 4096;

  private static final int PAGE = 256;

  /**
   * A read older than this is done again even without a signal: a writer that forgot {@code
   * committed()} delays its events by this much, for one query shared by every stream.
   */
  private static final long STALE_NANOS = 1_000_000_000L;

  /**
   * Events of one run (or all) after a position, and how far they go: every matching event with an
   * id up to {@code scannedTo} is in {@code events}.
   */
  record Slice(List<SimEvent> events, long scannedTo) {}

  private final EventRows rows;
  private final Deque<SimEvent> recent = new ArrayDeque<>();
  private boolean started;

  /** Every event with an id above this one and up to {@link #readTo} is in {@link #recent}. */
  private long coveredAfter;

  private volatile long readTo;
  private long readAtGeneration = -1;
  private long readAtNanos;

  EventTail(EventRows rows) {
    this.rows = rows;
  }

  /**
   * The events of {@code runId} (all runs when null) after {@code afterId}, at most {@code limit},
   * once every change signalled up to {@code generation} is read; null when {@code afterId} is
   * older than the tail holds (read the table then).
   */
  synchronized Slice after(String runId, long afterId, int limit, long generation) {
    if (generation > readAtGeneration || System.nanoTime() - readAtNanos > STALE_NANOS) {
      readNew(generation);
    }
    if (afterId < coveredAfter) {
      return null;
    }
    List<SimEvent> events = new ArrayList<>();
    for (SimEvent event : recent) {
      if (event.id() <= afterId || (runId != null && !runId.equals(event.runId()))) {
        continue;
      }
      events.add(event);
      if (events.size() == limit) {
        return new Slice(events, event.id());
      }
    }
    return new Slice(events, Math.max(afterId, readTo));
  }

  /**
   * The newest id read into the tail: every event up to it was committed, so a table read made
   * after this call sees all of them.
   */
  long readTo() {
    return readTo;
  }

  private void readNew(long generation) {
    // Read at least every change signalled so far; later ones raise the generation again.
    readAtGeneration = Math.max(readAtGeneration, generation);
    readAtNanos = System.nanoTime();
    if (!started) {
      started = true;
      readTo = rows.latestId();
      coveredAfter = readTo;
      return;
    }
    while (true) {
      List<SimEvent> page = rows.after(null, readTo, PAGE);
      for (SimEvent event : page) {
        recent.addLast(event);
        readTo = event.id();
        if (recent.size() > CAPACITY) {
          coveredAfter = recent.removeFirst().id();
        }
      }
      if (page.size() < PAGE) {
        return;
      }
    }
  }
}
