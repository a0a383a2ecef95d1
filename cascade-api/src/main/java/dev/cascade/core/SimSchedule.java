package dev.cascade.core;

import java.time.Instant;
import java.util.Objects;

/**
 * Where an unfinished sim stands, read at one moment: its place among the sims waiting for a slot,
 * and when it is expected to finish.
 *
 * @param queuePosition 1 for the next sim to start, 2 for the one after; null once it has started
 * @param eta the estimated finish; null when nothing is known to estimate it from (no earlier
 *     succeeded sim of the trace)
 * @param basis what the estimate comes from, in words ({@code "3 earlier sims of this trace on
 *     SM90_H100"}); null without an estimate
 */
public record SimSchedule(String simId, Integer queuePosition, Instant eta, String basis) {

  public SimSchedule {
    Objects.requireNonNull(simId, "simId");
    if (queuePosition != null && queuePosition < 1) {
      throw new IllegalArgumentException("queuePosition starts at 1; got " + queuePosition);
    }
  }
}
