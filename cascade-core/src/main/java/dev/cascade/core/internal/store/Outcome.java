package dev.cascade.core.internal.store;

import dev.cascade.core.FailureClass;
import java.util.Objects;

/**
 * What a sim reported, or why it failed, stored by {@link SimRepository} together with a state move
 * and only when the move is made. A null field leaves the stored value as it is.
 *
 * @param error why the sim failed ({@code "no heartbeat for 600s"})
 * @param exitCode the simulator's exit code
 * @param failureClass the class of a failure; null to have {@link FailureClass#classify} read it
 *     from the error and the exit code when the move is to {@code failed}
 */
public record Outcome(String error, Integer exitCode, FailureClass failureClass) {

  /** Nothing to store besides the move. */
  public static final Outcome NONE = new Outcome(null, null, null);

  public Outcome(String error, Integer exitCode) {
    this(error, exitCode, null);
  }

  public static Outcome error(String error) {
    return new Outcome(Objects.requireNonNull(error, "error"), null, null);
  }
}
