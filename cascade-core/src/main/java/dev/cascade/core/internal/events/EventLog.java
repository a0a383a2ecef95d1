package dev.cascade.core.internal.events;

import dev.cascade.core.EventStream;
import dev.cascade.core.SimEvent;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.EventRepository;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sim events kept in the {@code events} table ({@link EventRepository}). Writers append inside
 * their own transaction, so an event exists exactly when the change it describes does, then call
 * {@link #committed()}. Readers ({@link EventStream}s) get events in id order and wait on a signal
 * between reads: nothing is lost or repeated, and a reconnecting client resumes from any id it saw,
 * even across restarts. A reader that is caught up takes its events from the {@link EventTail},
 * which reads the table once per change for every reader; one further behind reads the table
 * itself, a page at a time, so a slow reader holds no more than a page.
 */
public final class EventLog {

  private static final int PAGE = 256;

  private final EventRepository repository;
  private final EventRows rows;
  private final EventTail tail;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition appended = lock.newCondition();
  private long generation;

  public EventLog(Database database) {
    this(new EventRepository(database));
  }

  private EventLog(EventRepository repository) {
    this(repository, new TableRows(repository));
  }

  /** An event log whose reads go to {@code rows} (a test counts them). */
  EventLog(EventRepository repository, EventRows rows) {
    this.repository = repository;
    this.rows = rows;
    this.tail = new EventTail(rows);
  }

  /** Appends an event in the caller's write transaction and returns it with its id. */
  public SimEvent append(
      Connection connection,
      String runId,
      String simId,
      SimEvent.Kind kind,
      Instant at,
      String data)
      throws SQLException {
    return repository.insert(connection, runId, simId, kind, at, data);
  }

  /** Wakes the streams waiting for events; call after the transaction that appended commits. */
  public void committed() {
    lock.lock();
    try {
      generation++;
      appended.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The events of {@code kind} of run {@code runId}, oldest first, read from the table. */
  public List<SimEvent> ofKind(String runId, SimEvent.Kind kind) {
    return repository.ofKind(runId, kind);
  }

  /** The newest event id; 0 when there are none. */
  public long latestId() {
    return rows.latestId();
  }

  /** The events of {@code runId} (every run when null) with ids above {@code afterId}. */
  public EventStream stream(String runId, long afterId) {
    return new TableStream(runId, afterId);
  }

  private final class TableStream implements EventStream {
    private final String runId;
    private final Deque<SimEvent> page = new ArrayDeque<>();
    private long lastId;

    /** Every event of the run up to this id was read into {@link #page} (or returned). */
    private long scanned;

    private volatile boolean closed;

    TableStream(String runId, long afterId) {
      this.runId = runId;
      this.lastId = Math.max(0, afterId);
      this.scanned = lastId;
    }

    @Override
    public Optional<SimEvent> next(Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!closed) {
        if (page.isEmpty()) {
          long seen;
          lock.lock();
          try {
            seen = generation;
          } finally {
            lock.unlock();
          }
          readPage(seen);
          if (page.isEmpty()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
              return Optional.empty();
            }
            lock.lock();
            try {
              if (generation == seen) {
                appended.await(remaining, TimeUnit.NANOSECONDS);
              }
            } finally {
              lock.unlock();
            }
            continue;
          }
        }
        SimEvent event = page.removeFirst();
        lastId = event.id();
        return Optional.of(event);
      }
      return Optional.empty();
    }

    private void readPage(long generation) {
      EventTail.Slice slice = tail.after(runId, scanned, PAGE, generation);
      if (slice != null) {
        page.addAll(slice.events());
        scanned = slice.scannedTo();
        return;
      }
      // Behind the tail: a page from the table; once short of a page, it is caught up to
      // whatever the tail had read before this query.
      long known = tail.readTo();
      List<SimEvent> events = rows.after(runId, scanned, PAGE);
      page.addAll(events);
      long last = events.isEmpty() ? scanned : events.getLast().id();
      scanned = events.size() < PAGE ? Math.max(last, known) : last;
    }

    @Override
    public long lastId() {
      return lastId;
    }

    @Override
    public void close() {
      closed = true;
      lock.lock();
      try {
        appended.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** The events table as {@link EventRows}. */
  private record TableRows(EventRepository table) implements EventRows {
    @Override
    public List<SimEvent> after(String runId, long afterId, int limit) {
      return table.after(runId, afterId, limit);
    }

    @Override
    public long latestId() {
      return table.latestId();
    }
  }
}
