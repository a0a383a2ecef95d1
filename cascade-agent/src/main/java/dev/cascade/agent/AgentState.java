package dev.cascade.agent;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * What the agent's threads share: when the app last answered, whether it is unreachable now, and
 * the first reason to stop early. Waits here end early whenever anything changes.
 */
final class AgentState {

  /** Why the agent stops before the simulator's normal end. */
  enum Stop {
    /** A heartbeat was answered {@code cancel: true}. */
    CANCELLED,
    /** The agent got SIGTERM. */
    SIGTERM,
    /** The app did not answer for the give-up time. */
    GAVE_UP,
    /** The app refused the sim (4xx). */
    REJECTED
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final AgentLog log;
  private final String url;
  private volatile long lastContact = System.nanoTime();
  private volatile long refusedSince;
  private volatile boolean refusing;
  private volatile boolean outage;
  private volatile boolean everReached;
  private volatile Stop stop;
  private volatile String stopMessage;

  AgentState(AgentLog log, String url) {
    this.log = log;
    this.url = url;
  }

  /** The app answered. */
  void contact() {
    lastContact = System.nanoTime();
    refusing = false;
    if (outage) {
      outage = false;
      log.info("reached the app at " + url + " again; sending what was spooled");
    }
    everReached = true;
  }

  /** A request failed in a way worth retrying; a refused connection means the app is gone. */
  void unreachable(AppClient.AppException e) {
    if (!e.refused()) {
      refusing = false;
    } else if (!refusing) {
      refusedSince = System.nanoTime();
      refusing = true;
    }
    unreachable(e.getMessage());
  }

  /** A request failed in a way worth retrying. */
  void unreachable(String reason) {
    if (!outage) {
      outage = true;
      log.info(
          (everReached ? "lost the app at " : "cannot reach the app at ")
              + url
              + " ("
              + reason
              + "); retrying with backoff, output is spooled");
    }
  }

  long lastContact() {
    return lastContact;
  }

  /**
   * How long every request has been refused (nothing listens at the app's address), measured from
   * the first refusal in a row; zero when the last request got in, answered or not. Only refused
   * connections mean the app is gone, not slow or restarting, and the pauses between retries must
   * not count as evidence either way.
   */
  long refusedFor(long now) {
    return refusing ? now - refusedSince : 0;
  }

  /** Asks the agent to stop; the first reason wins. Returns true when this one did. */
  boolean stop(Stop reason, String message) {
    lock.lock();
    try {
      if (stop != null) {
        return false;
      }
      stopMessage = message;
      stop = reason;
      changed.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Why the agent stops early; null while it need not. */
  Stop stopReason() {
    return stop;
  }

  /** True once the agent gave up on the app or the app refused it: no more sending. */
  boolean fatal() {
    Stop reason = stop;
    return reason == Stop.GAVE_UP || reason == Stop.REJECTED;
  }

  String stopMessage() {
    return stopMessage;
  }

  /** Wakes every waiter so it checks its condition again. */
  void signal() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until {@code done} holds or {@code deadline} (a {@link System#nanoTime()}) passes,
   * checking whenever something changes and at least every 100 ms. Returns {@code done}'s value.
   */
  boolean awaitUntil(BooleanSupplier done, long deadline) throws InterruptedException {
    lock.lock();
    try {
      while (!done.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }
}
