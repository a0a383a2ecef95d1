package dev.cascade.core;

import java.time.Duration;
import java.util.Objects;

/**
 * One line of a run request: a GPU config, how many replicas of it to simulate (1 to 64), and
 * optionally the kernels to simulate ({@link KernelWindow}, {@code "1-5,9"}; null for all).
 *
 * @param timeLimit the wall time each sim of the entry may take once launched; null for none. A sim
 *     over it is stopped and fails with {@code timed out after ...}
 * @param sampling simulate only the representatives of the trace's {@link SamplingPlan} and
 *     estimate the whole trace from them; null to simulate what {@code kernels} names. An entry
 *     takes a window or sampling, not both
 */
public record RunEntry(
    String gpuConfig, int count, String kernels, Duration timeLimit, Sampling sampling) {

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
    if (timeLimit != null) {
      TimeLimit.requireValid(timeLimit);
    }
    if (kernels != null && sampling != null) {
      throw new IllegalArgumentException(
          "the entry for \""
              + gpuConfig
              + "\" names both kernels \""
              + kernels
              + "\" and sampling; give one: a window of kernels, or sampling to choose them");
    }
  }

  /** An entry with a window (null: all) and a time limit (null: none), not sampled. */
  public RunEntry(String gpuConfig, int count, String kernels, Duration timeLimit) {
    this(gpuConfig, count, kernels, timeLimit, null);
  }

  /** An entry that samples the trace's kernels as {@code sampling} asks. */
  public RunEntry(String gpuConfig, int count, Sampling sampling) {
    this(gpuConfig, count, null, null, sampling);
  }

  /** An entry simulating every kernel of the trace, without a time limit. */
  public RunEntry(String gpuConfig, int count) {
    this(gpuConfig, count, (String) null, null);
  }

  /** An entry simulating the kernels of {@code kernels} (null: all), without a time limit. */
  public RunEntry(String gpuConfig, int count, String kernels) {
    this(gpuConfig, count, kernels, null);
  }

  /** An entry simulating every kernel, each sim limited to {@code timeLimit} (null: none). */
  public RunEntry(String gpuConfig, int count, Duration timeLimit) {
    this(gpuConfig, count, null, timeLimit);
  }

  /** The kernel window, when the entry names one. */
  public java.util.Optional<KernelWindow> window() {
    return kernels == null
        ? java.util.Optional.empty()
        : java.util.Optional.of(KernelWindow.parse(kernels));
  }

  /** This entry with each sim limited to {@code timeLimit} of wall time (null: no limit). */
  public RunEntry withTimeLimit(Duration timeLimit) {
    return new RunEntry(gpuConfig, count, kernels, timeLimit, sampling);
  }

  /** This entry sampled as {@code sampling} asks (null: not sampled). */
  public RunEntry withSampling(Sampling sampling) {
    return new RunEntry(gpuConfig, count, kernels, timeLimit, sampling);
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
