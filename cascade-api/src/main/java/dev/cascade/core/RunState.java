package dev.cascade.core;

import java.util.Collection;
import java.util.Locale;

/** A run's state. Never stored: derived from its sims on every read. */
public enum RunState {
  ACTIVE,
  SUCCEEDED,
  PARTIAL,
  CANCELLED,
  FAILED;

  /**
   * Derives a run's state: any sim unfinished gives {@code active}; all succeeded gives {@code
   * succeeded}; some succeeded and the others failed or cancelled gives {@code partial}; none
   * succeeded and any cancelled gives {@code cancelled}; all failed gives {@code failed}.
   */
  public static RunState of(Collection<SimState> simStates) {
    if (simStates.isEmpty()) {
      throw new IllegalArgumentException("a run has at least one sim; got none");
    }
    boolean anySucceeded = false;
    boolean allSucceeded = true;
    boolean anyCancelled = false;
    for (SimState state : simStates) {
      if (!state.isFinished()) {
        return ACTIVE;
      }
      anySucceeded |= state == SimState.SUCCEEDED;
      allSucceeded &= state == SimState.SUCCEEDED;
      anyCancelled |= state == SimState.CANCELLED;
    }
    if (allSucceeded) {
      return SUCCEEDED;
    }
    if (anySucceeded) {
      return PARTIAL;
    }
    return anyCancelled ? CANCELLED : FAILED;
  }

  /** The lower-case name used in JSON ({@code "partial"}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
