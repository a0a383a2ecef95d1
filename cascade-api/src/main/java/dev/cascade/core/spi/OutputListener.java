package dev.cascade.core.spi;

/** What an {@link OutputParser} found, in log order; every method does nothing by default. */
public interface OutputListener {

  /**
   * The log named a build of the simulator: {@code component} as the simulator calls its part
   * ({@code Accel-Sim}, {@code GPGPU-Sim}), {@code build} its build string. The first of each
   * component counts.
   */
  default void onBuild(String component, String build) {}

  /**
   * As {@link #onBuild(String, String)}, with the version the log names for the component ({@code
   * 4.2.0} of {@code GPGPU-Sim Simulator Version 4.2.0}); null when it names none. By default the
   * version is dropped.
   */
  default void onBuild(String component, String build, String version) {
    onBuild(component, build);
  }

  /** A kernel started: the one now running. */
  default void onKernelLaunched(String name, long uid) {}

  /** A kernel finished, with its numbers. */
  default void onKernelFinished(FinishedKernel kernel) {}

  /** The log said how it ends (a normal exit, a limit, a failure). */
  default void onEnd(LogEnd end) {}
}
