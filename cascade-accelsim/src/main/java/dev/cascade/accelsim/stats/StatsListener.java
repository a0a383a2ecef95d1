package dev.cascade.accelsim.stats;

/**
 * Receives what {@link KernelStatsParser} finds, in log order, on the thread that feeds it. Every
 * method does nothing by default; implement the ones you need. An exception thrown here propagates
 * out of {@code feed} or {@code finish}.
 */
public interface StatsListener {

  /** A build string line ({@code Accel-Sim [build ...]}, {@code *** GPGPU-Sim ... [build ...]}). */
  default void onBuild(BuildString build) {}

  /** A {@code launching memcpy command : ...} line. */
  default void onMemcpy(MemcpyCommand memcpy) {}

  /**
   * A {@code launching kernel name: NAME uid: N} line: this kernel is now running.
   *
   * @param name the kernel's name
   * @param uid the kernel's launch uid, or 0 when the line had none
   */
  default void onKernelLaunched(String name, long uid) {}

  /** A kernel finished: its statistics block was printed (and has ended). */
  default void onKernelFinished(KernelStats stats) {}

  /**
   * The log's outcome changed: an exit, limit or failure line was seen, or {@code finish()} was
   * called before any was ({@link LogOutcome.State#INCOMPLETE}). Called at most once per state.
   */
  default void onEnd(LogOutcome outcome) {}
}
