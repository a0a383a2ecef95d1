package dev.cascade.core.spi;

import java.util.Locale;
import java.util.Objects;

/**
 * How a sim's log ended, as its simulator's output says.
 *
 * @param state complete, stopped at a limit, failed, or not ended yet
 * @param reason in words, for people
 */
public record LogEnd(State state, String reason) {

  /** Where the log is. */
  public enum State {
    /** No end line seen (yet). */
    INCOMPLETE,
    /** The simulator exited normally. */
    COMPLETE,
    /** It stopped at a cycle or instruction limit: the last kernel's numbers are not final. */
    NOT_FINAL,
    /** It printed a failure (a deadlock, an unsupported trace). */
    FAILED;

    /** The lower-case name stored and shown ({@code not_final}). */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public LogEnd {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reason, "reason");
  }

  public boolean failed() {
    return state == State.FAILED;
  }
}
