package dev.cascade.core.spi;

import java.util.Objects;

/**
 * Where the launcher's own system says one launched sim is, for launchers that know more than the
 * sim's heartbeats tell (a batch scheduler's queue). Polled by the run manager through {@link
 * Launcher#status}.
 *
 * @param phase where it is
 * @param detail the launcher's words for it, shown to users (Slurm's state and reason: {@code
 *     PENDING (Priority)}, {@code TIMEOUT (TimeLimit)}); never null
 */
public record LauncherStatus(Phase phase, String detail) {

  public LauncherStatus {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(detail, "detail");
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
    KILLED
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

  public static LauncherStatus killed(String detail) {
    return new LauncherStatus(Phase.KILLED, detail);
  }
}
