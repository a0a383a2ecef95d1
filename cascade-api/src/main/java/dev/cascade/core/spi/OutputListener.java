package dev.cascade.core.spi;

/** What an {@link OutputParser} found, in log order; every method does nothing by default. */
public interface OutputListener {

  /**
   * The log named a build of the simulator: {@code component} as the simulator calls its part
   * ({@code Accel-Sim}, {@code GPGPU-Sim}), {@code build} its build string. The first of each
   * component counts.
   */
  default void onBuild(String component, String build) {}

  /** A kernel started: the one now running. */
  default void onKernelLaunched(String name, long uid) {}

  /** A kernel finished, with its numbers. */
  default void onKernelFinished(FinishedKernel kernel) {}

  /** The log said how it ends (a normal exit, a limit, a failure). */
  default void onEnd(LogEnd end) {}
}
