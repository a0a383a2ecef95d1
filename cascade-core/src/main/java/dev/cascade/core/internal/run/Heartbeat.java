package dev.cascade.core.internal.run;

import dev.cascade.core.SimState;
import java.util.Objects;

/**
 * What a sim reports every few seconds.
 *
 * @param state {@code running}, {@code succeeded} or {@code failed}
 * @param error why it failed; null otherwise
 * @param exitCode the simulator's exit code once it has one; null before
 * @param chunks how many output chunks the sim has produced so far (0..chunks-1)
 * @param peakMemoryBytes the simulator's peak resident memory so far, as its agent measured its
 *     process tree; 0 when it measured none
 */
public record Heartbeat(
    SimState state, String error, Integer exitCode, long chunks, long peakMemoryBytes) {

  /** A heartbeat that says nothing of memory. */
  public Heartbeat(SimState state, String error, Integer exitCode, long chunks) {
    this(state, error, exitCode, chunks, 0);
  }

  public Heartbeat {
    Objects.requireNonNull(state, "state");
    if (state != SimState.RUNNING && state != SimState.SUCCEEDED && state != SimState.FAILED) {
      throw new IllegalArgumentException(
          "a heartbeat reports running, succeeded or failed; got \"" + state.wireName() + "\"");
    }
    if (chunks < 0) {
      throw new IllegalArgumentException("chunks cannot be negative; got " + chunks);
    }
    if (peakMemoryBytes < 0) {
      throw new IllegalArgumentException(
          "peakMemoryBytes cannot be negative; got " + peakMemoryBytes);
    }
  }

  public static Heartbeat running(long chunks) {
    return new Heartbeat(SimState.RUNNING, null, null, chunks);
  }

  /** True for {@code succeeded} and {@code failed}: the sim's last word. */
  public boolean isFinal() {
    return state.isFinished();
  }
}
