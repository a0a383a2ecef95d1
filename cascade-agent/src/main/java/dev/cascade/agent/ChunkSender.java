package dev.cascade.agent;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Sends spooled chunks to the app, one at a time, lowest seq first, retrying each with backoff
 * until the app takes it; a chunk leaves the queue only then. A refusal stops the agent.
 */
final class ChunkSender {

  private final AppClient client;
  private final Spool spool;
  private final AgentState state;
  private final AgentLog log;
  private final Backoff backoff;
  private final Duration requestTimeout;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final TreeSet<Long> pending = new TreeSet<>();
  private long delivered;
  private boolean stopped;
  private Thread thread;

  ChunkSender(
      AppClient client,
      Spool spool,
      AgentState state,
      AgentLog log,
      Backoff backoff,
      Duration requestTimeout) {
    this.requestTimeout = requestTimeout;
    this.client = client;
    this.spool = spool;
    this.state = state;
    this.log = log;
    this.backoff = backoff;
  }

  void start() {
    thread = Thread.ofPlatform().daemon().name("sim-agent-chunks").start(this::run);
  }

  /** Queues a new chunk. */
  void offer(long seq) {
    lock.lock();
    try {
      pending.add(seq);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Queues chunks the app says it lacks. */
  void resend(Collection<Long> seqs) {
    lock.lock();
    try {
      pending.addAll(seqs);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Chunks the app has accepted (resends included). */
  long delivered() {
    lock.lock();
    try {
      return delivered;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every queued chunk was accepted; false when {@code deadline} passes or the agent is
   * told to stop first.
   */
  boolean awaitDrained(LongSupplier deadline) throws InterruptedException {
    while (true) {
      lock.lock();
      try {
        if (pending.isEmpty()) {
          return true;
        }
        if (stopped || state.fatal()) {
          return false;
        }
        // Read again each time: a SIGTERM moves the deadline closer while this waits.
        long left = deadline.getAsLong() - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.awaitNanos(Math.min(left, 100_000_000L));
      } finally {
        lock.unlock();
      }
    }
  }

  /** Stops sending; what is queued stays in the spool. */
  void stop() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (thread != null) {
      thread.interrupt();
    }
  }

  private void run() {
    try {
      while (true) {
        long seq;
        lock.lock();
        try {
          while (pending.isEmpty() && !stopped) {
            changed.await();
          }
          if (stopped) {
            return;
          }
          seq = pending.first();
        } finally {
          lock.unlock();
        }
        if (!deliver(seq)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      // stopped
    }
  }

  /** Sends one chunk until the app takes it; false when sending must stop. */
  private boolean deliver(long seq) throws InterruptedException {
    byte[] bytes;
    try {
      bytes = spool.read(seq);
    } catch (IOException e) {
      log.info(
          "chunk "
              + seq
              + " is gone from the spool ("
              + e.getMessage()
              + "); the app will miss it. Was "
              + spool.dir()
              + " cleaned up while the sim ran?");
      done(seq);
      return true;
    }
    while (true) {
      if (state.fatal()) {
        return false;
      }
      try {
        client.putChunk(seq, bytes, spool.readAt(seq), requestTimeout);
        state.contact();
        backoff.reset();
        done(seq);
        return true;
      } catch (AppClient.AppException e) {
        if (!e.retryable()) {
          state.stop(AgentState.Stop.REJECTED, e.getMessage());
          return false;
        }
        state.unreachable(e);
        Duration wait = backoff.next();
        lock.lock();
        try {
          if (stopped) {
            return false;
          }
          changed.awaitNanos(wait.toNanos());
        } finally {
          lock.unlock();
        }
      }
    }
  }

  private void done(long seq) {
    lock.lock();
    try {
      pending.remove(seq);
      delivered++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
