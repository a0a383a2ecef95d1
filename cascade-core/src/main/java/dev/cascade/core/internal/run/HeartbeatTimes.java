package dev.cascade.core.internal.run;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.SimRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat times of running sims whose heartbeat changed nothing else, held in memory and
 * written to {@code sims.last_heartbeat_at} together, at most {@link #FLUSH_EVERY} later, in one
 * transaction: a fleet's routine heartbeats cost one commit a second instead of one each. Nothing
 * acknowledged depends on them (a heartbeat that moves a sim is written at once, with its move),
 * and losing the last second of them in a crash is harmless: after a restart {@link HeartbeatCheck}
 * counts silence from the restart at the earliest.
 */
public final class HeartbeatTimes implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HeartbeatTimes.class);

  /** How long a heartbeat time waits in memory at most before it is written. */
  static final Duration FLUSH_EVERY = Duration.ofSeconds(1);

  private final Database database;
  private final SimRepository sims;
  private final ConcurrentHashMap<String, Instant> unwritten = new ConcurrentHashMap<>();
  private final ScheduledExecutorService flusher =
      Executors.newSingleThreadScheduledExecutor(
          runnable ->
              Thread.ofPlatform().daemon().name("cascade-heartbeat-flush").unstarted(runnable));

  public HeartbeatTimes(Database database, SimRepository sims) {
    this.database = database;
    this.sims = sims;
    long every = FLUSH_EVERY.toMillis();
    flusher.scheduleWithFixedDelay(this::flushLogged, every, every, TimeUnit.MILLISECONDS);
  }

  /** Notes a heartbeat of {@code simId} at {@code at}; the latest time wins. */
  public void beat(String simId, Instant at) {
    unwritten.merge(simId, at, (held, next) -> next.isAfter(held) ? next : held);
  }

  /**
   * The heartbeat times not written yet. Take them BEFORE reading the sims' rows: a time written
   * meanwhile is then in one or the other.
   */
  public Map<String, Instant> unwritten() {
    return Map.copyOf(unwritten);
  }

  /** Writes the times held now in one transaction; a sim gone meanwhile is skipped. */
  public void flush() {
    Map<String, Instant> batch = new HashMap<>(unwritten);
    if (batch.isEmpty()) {
      return;
    }
    database.write(
        connection -> {
          for (Map.Entry<String, Instant> beat : batch.entrySet()) {
            try {
              sims.recordHeartbeat(connection, beat.getKey(), beat.getValue());
            } catch (CascadeException e) {
              if (e.code() != ErrorCode.NOT_FOUND) {
                throw e;
              }
            }
          }
          return null;
        });
    // Only what was written: a newer heartbeat noted meanwhile stays for the next flush.
    batch.forEach(unwritten::remove);
  }

  private void flushLogged() {
    try {
      flush();
    } catch (RuntimeException e) {
      log.warn(
          "writing {} heartbeat times failed; trying again: {}", unwritten.size(), e.getMessage());
    }
  }

  /** Stops the flusher and writes what is held. */
  @Override
  public void close() {
    flusher.shutdownNow();
    try {
      flusher.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      flush();
    } catch (RuntimeException e) {
      log.warn("writing the last heartbeat times failed: {}", e.getMessage());
    }
  }
}
