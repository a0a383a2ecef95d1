package dev.cascade.agent;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff for retries while the app is unreachable: the first wait is {@code initial},
 * each next one doubles, never beyond {@code max}; {@link #reset()} after a success. Each wait is
 * trimmed by up to a fifth at random (unless {@code jitter} is off) so many sims that lost the app
 * together do not come back in lockstep.
 */
final class Backoff {

  private final long initialNanos;
  private final long maxNanos;
  private final boolean jitter;
  private long nextNanos;
  private int failures;

  public Backoff(Duration initial, Duration max, boolean jitter) {
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("the first backoff must be positive; got " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "the largest backoff (" + max + ") must not be below the first (" + initial + ")");
    }
    this.initialNanos = initial.toNanos();
    this.maxNanos = max.toNanos();
    this.jitter = jitter;
    this.nextNanos = initialNanos;
  }

  /** The wait before the next retry; each call doubles the following one, up to the cap. */
  public Duration next() {
    long wait = nextNanos;
    nextNanos = wait > maxNanos / 2 ? maxNanos : Math.min(maxNanos, wait * 2);
    failures++;
    if (jitter) {
      wait -= ThreadLocalRandom.current().nextLong(wait / 5 + 1);
    }
    return Duration.ofNanos(wait);
  }

  /** After a success: the next failure waits {@code initial} again. */
  public void reset() {
    nextNanos = initialNanos;
    failures = 0;
  }

  /** Failures since the last success. */
  public int failures() {
    return failures;
  }
}
