package dev.cascade.core;

import java.time.Duration;
import java.util.Objects;

/**
 * One line of a run request: a GPU config, how many replicas of it to simulate (1 to 64), and
 * optionally the kernels to simulate ({@link KernelWindow}, {@code "1-5,9"}; null for all).
 *
 * @param timeLimit the wall time each sim of the entry may take once launched; null for none. A sim
 *     over it is stopped and fails with {@code timed out after ...}
 * @param context which CUDA context of the trace to simulate, for a trace with several (Accel-Sim
 *     2.0's tracer writes a list per context): {@code kernelslist} for the first (its {@code
 *     kernelslist.g}), or another's list name such as {@code kernelslist_ctx_0x2} (its {@code
 *     kernelslist_ctx_0x2.g}); null for the first. The kernel window counts positions in that
 *     context's list.
 */
public record RunEntry(
    String gpuConfig, int count, String kernels, Duration timeLimit, String context) {

  public static final int MAX_COUNT = 64;

  /** The longest context name taken. */
  public static final int MAX_CONTEXT_CHARS = 200;

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
    if (context != null) {
      requireValidContext(context);
    }
  }

  /** An entry of the trace's first CUDA context (or its only one). */
  public RunEntry(String gpuConfig, int count, String kernels, Duration timeLimit) {
    this(gpuConfig, count, kernels, timeLimit, null);
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
    return new RunEntry(gpuConfig, count, kernels, timeLimit, context);
  }

  /** This entry simulating the CUDA context {@code context} of the trace (null: the first). */
  public RunEntry withContext(String context) {
    return new RunEntry(gpuConfig, count, kernels, timeLimit, context);
  }

  /**
   * Checks that {@code context} can name a CUDA context: a list name of letters, digits, {@code _},
   * {@code .} and {@code -}, such as {@code kernelslist_ctx_0x2}. Whether the trace has it is
   * checked when the run is made.
   *
   * @throws IllegalArgumentException naming the value when it cannot
   */
  public static void requireValidContext(String context) {
    boolean valid =
        !context.isEmpty()
            && context.length() <= MAX_CONTEXT_CHARS
            && !context.startsWith(".")
            && context
                .chars()
                .allMatch(
                    c ->
                        (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '_'
                            || c == '.'
                            || c == '-');
    if (!valid) {
      throw new IllegalArgumentException(
          "context must name a CUDA context of the trace, such as kernelslist (the first) or"
              + " kernelslist_ctx_0x2 (cascade trace-info lists them); got \""
              + (context.length() > MAX_CONTEXT_CHARS
                  ? context.substring(0, MAX_CONTEXT_CHARS) + "..."
                  : context)
              + "\"");
    }
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
