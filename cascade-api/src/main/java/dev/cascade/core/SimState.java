package dev.cascade.core;

import java.util.Locale;

/** Where one sim is in its life. The allowed moves are {@link SimStateMachine#SIM_TRANSITIONS}. */
public enum SimState {
  PENDING,
  LAUNCHING,
  RUNNING,
  LOST,
  SUCCEEDED,
  FAILED,
  CANCELLED;

  /** True once the sim can never move again. */
  public boolean isFinished() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }

  /** The lower-case name used in JSON, the database and logs ({@code "running"}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Reads a wire name; the message names the value and the accepted ones. */
  public static SimState fromWireName(String value) {
    for (SimState state : values()) {
      if (state.wireName().equals(value)) {
        return state;
      }
    }
    throw new IllegalArgumentException(
        "unknown sim state \""
            + value
            + "\"; expected one of pending, launching, running, lost,"
            + " succeeded, failed, cancelled");
  }
}
