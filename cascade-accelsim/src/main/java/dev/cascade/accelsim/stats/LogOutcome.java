package dev.cascade.accelsim.stats;

import java.util.Locale;
import java.util.Objects;

/**
 * How a simulator log ended, as far as the lines seen so far tell.
 *
 * <p>States only ever move towards the more serious end: {@link State#INCOMPLETE} to {@link
 * State#COMPLETE} to {@link State#NOT_FINAL} to {@link State#FAILED}. So {@code exit detected}
 * printed after a {@code break due to reaching the maximum ...} line leaves the log not final, and
 * a deadlock is a failure whatever follows it.
 *
 * @param state the state
 * @param reason what decided it, in words (for a failure, the simulator's own line, trimmed)
 */
public record LogOutcome(State state, String reason) {

  /** How a log ended. */
  public enum State {
    /** None of the lines below was seen (yet): the simulator is running or was killed. */
    INCOMPLETE,
    /** {@code GPGPU-Sim: *** exit detected ***}: the simulation ran to its end. */
    COMPLETE,
    /**
     * {@code GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **}: the
     * simulation stopped at a limit, so the last kernel's numbers are not final.
     */
    NOT_FINAL,
    /**
     * {@code ERROR ** deadlock detected} or {@code unsupported binary version: N}: the simulation
     * failed (the latter even though the simulator then exits with code 0).
     */
    FAILED;

    /** The state's name in JSON and on screen: {@code complete}, {@code not_final}, ... */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final LogOutcome INCOMPLETE =
      new LogOutcome(State.INCOMPLETE, "no exit, limit or failure line seen");
  static final LogOutcome COMPLETE = new LogOutcome(State.COMPLETE, "exit detected");

  public LogOutcome {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reason, "reason");
  }

  /** True when the log says the simulation ran to its end ({@link State#COMPLETE}). */
  public boolean complete() {
    return state == State.COMPLETE;
  }

  /** True when the simulation failed ({@link State#FAILED}). */
  public boolean failed() {
    return state == State.FAILED;
  }
}
