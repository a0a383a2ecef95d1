package dev.cascade.core.spi;

import dev.cascade.core.FailureClass;
import java.util.Objects;

/**
 * Where the launcher's own system says one launched sim is, for launchers that know more than the
 * sim's heartbeats tell (a batch scheduler's queue). Polled by the run manager through {@link
 * Launcher#status}.
 *
 * @param phase where it is
 * @param detail the launcher's words for it, shown to users (Slurm's state and reason: {@code
 *     PENDING (Priority)}, {@code TIMEOUT (TimeLimit)}); never null
 * @param failure for an end the launcher's system imposed, why, as a type (Slurm's {@code TIMEOUT}
 *     is {@link FailureClass#TIMED_OUT}, {@code OUT_OF_MEMORY} {@link FailureClass#OUT_OF_MEMORY}):
 *     the sim's failure class, never parsed back out of {@code detail}; null when the launcher does
 *     not know, and always for {@link Phase#QUEUED}, {@link Phase#RUNNING} and {@link
 *     Phase#UNKNOWN}
 */
public record LauncherStatus(Phase phase, String detail, FailureClass failure) {

  public LauncherStatus {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(detail, "detail");
    if (failure != null
        && (phase == Phase.QUEUED || phase == Phase.RUNNING || phase == Phase.UNKNOWN)) {
      throw new IllegalArgumentException(
          "a " + phase + " sim has not failed; got failure " + failure.wireName());
    }
  }

  /** A status without a failure class. */
  public LauncherStatus(Phase phase, String detail) {
    this(phase, detail, null);
  }

  /** Where a launched sim is, as its launcher sees it. */
  public enum Phase {
    /** Waiting for resources: the sim has not started and cannot heartbeat yet. */
    QUEUED,
    /** Started; its heartbeats say the rest. */
    RUNNING,
    /**
     * Over, as far as the launcher knows: a sim that has not reported its end by then never will,
     * and fails with the detail as its error.
     */
    ENDED,
    /**
     * Ended by the launcher's system rather than by the sim (a time limit, out of memory, a node
     * lost, preemption): as {@link #ENDED}, and a sim that reported its own failure on the way (the
     * SIGTERM before the kill) gets the detail in front of its error, so users see why.
     */
    KILLED,
    /**
     * The launcher's system cannot be asked now (its controller does not answer): nothing is
     * decided. A sim that has not reported since its launch may still wait in that system's queue,
     * so it is kept queued, and not counted silent, until the system answers again.
     */
    UNKNOWN
  }

  /** The launcher's system cannot be asked; {@code detail} says why. */
  public static LauncherStatus unknown(String detail) {
    return new LauncherStatus(Phase.UNKNOWN, detail);
  }

  public static LauncherStatus queued(String detail) {
    return new LauncherStatus(Phase.QUEUED, detail);
  }

  public static LauncherStatus running(String detail) {
    return new LauncherStatus(Phase.RUNNING, detail);
  }

  public static LauncherStatus ended(String detail) {
    return new LauncherStatus(Phase.ENDED, detail);
  }

  /** Ended, with why when the launcher's system says ({@code failure} may be null). */
  public static LauncherStatus ended(String detail, FailureClass failure) {
    return new LauncherStatus(Phase.ENDED, detail, failure);
  }

  public static LauncherStatus killed(String detail) {
    return new LauncherStatus(Phase.KILLED, detail);
  }

  /** Killed by the launcher's system, with why ({@code failure} may be null). */
  public static LauncherStatus killed(String detail, FailureClass failure) {
    return new LauncherStatus(Phase.KILLED, detail, failure);
  }
}
