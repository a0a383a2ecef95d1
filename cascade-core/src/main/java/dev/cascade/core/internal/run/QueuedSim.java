package dev.cascade.core.internal.run;

import java.util.Objects;

/**
 * A sim waiting for a slot, with what decides its turn.
 *
 * @param seq the order it was queued in; earlier goes first among equals
 */
record QueuedSim(String simId, String runId, String owner, int priority, long seq) {

  QueuedSim {
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(owner, "owner");
  }
}
