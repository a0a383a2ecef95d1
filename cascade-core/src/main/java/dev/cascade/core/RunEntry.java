package dev.cascade.core;

import java.util.Objects;

/**
 * One line of a run request: a GPU config, how many replicas of it to simulate (1 to 64), and
 * optionally the kernels to simulate ({@link KernelWindow}, {@code "1-5,9"}; null for all).
 */
public record RunEntry(String gpuConfig, int count, String kernels) {

  public static final int MAX_COUNT = 64;

  public RunEntry {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    if (gpuConfig.isBlank()) {
      throw new IllegalArgumentException("gpu_config must name a GPU config; got a blank name");
    }
    if (count < 1 || count > MAX_COUNT) {
      throw new IllegalArgumentException(countProblem(gpuConfig, count));
    }
    if (kernels != null) {
      kernels = KernelWindow.parse(kernels).text();
    }
  }

  /** An entry simulating every kernel of the trace. */
  public RunEntry(String gpuConfig, int count) {
    this(gpuConfig, count, null);
  }

  /** The kernel window, when the entry names one. */
  public java.util.Optional<KernelWindow> window() {
    return kernels == null
        ? java.util.Optional.empty()
        : java.util.Optional.of(KernelWindow.parse(kernels));
  }

  /**
   * Why {@code count} replicas of {@code gpuConfig} cannot be run, in the words every entry point
   * (API, web form, command line) shows: {@code count for "SM90_H100" must be a whole number from 1
   * to 64; got 65}.
   */
  public static String countProblem(String gpuConfig, long count) {
    return "count for \""
        + gpuConfig
        + "\" must be a whole number from 1 to "
        + MAX_COUNT
        + "; got "
        + count;
  }
}
