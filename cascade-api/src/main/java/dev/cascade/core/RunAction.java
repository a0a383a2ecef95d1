package dev.cascade.core;

import java.time.Instant;
import java.util.Objects;

/**
 * Who did what to a run, and when: a cancel, a retry or a rerun requested over the API, as the run
 * screen, {@code cascade runs show} and the run's event stream ({@code action} events) show it.
 *
 * @param action {@code cancel}, {@code retry} or {@code rerun}
 * @param user the user who asked
 * @param at when
 * @param newRunId for a rerun, the run it made; null otherwise
 */
public record RunAction(String action, String user, Instant at, String newRunId) {

  public static final String CANCEL = "cancel";
  public static final String RETRY = "retry";
  public static final String RERUN = "rerun";

  public RunAction {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(at, "at");
  }
}
