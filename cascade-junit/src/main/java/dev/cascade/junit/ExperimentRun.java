package dev.cascade.junit;

import dev.cascade.core.KernelComparison;
import dev.cascade.core.RunState;
import dev.cascade.core.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A finished run and its results, per GPU config and per kernel, with the spread across replicas:
 * plain values to assert on.
 *
 * <pre>{@code
 * ExperimentRun run = experiment.run("demo", "SM90_H100:3", "SM90_H200:3");
 * assertThat(run.config("SM90_H200").kernel("flash_fwd").cycles().n()).isEqualTo(3);
 * // on a real Accel-Sim (the emulator's H100 and H200 run the demo alike):
 * assertThat(run.speedups("SM90_H100", "SM90_H200"))
 *     .filteredOn(kernel -> kernel.name().contains("flash_fwd"))
 *     .allSatisfy(kernel -> assertThat(kernel.speedup()).isGreaterThanOrEqualTo(1.10));
 * }</pre>
 *
 * @param id the run's id ({@code r_...})
 * @param traceId the trace it ran
 * @param state how it ended
 * @param configs one per GPU config, in the order the run listed them
 */
public record ExperimentRun(
    String id, String traceId, RunState state, List<ConfigResults> configs) {

  public ExperimentRun {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(state, "state");
    configs = List.copyOf(configs);
  }

  /**
   * The results on {@code gpuConfig}.
   *
   * @throws IllegalArgumentException when the run did not ask for that config; the message lists
   *     the ones it did
   */
  public ConfigResults config(String gpuConfig) {
    return configs.stream()
        .filter(config -> config.gpuConfig().equals(gpuConfig))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "run "
                        + id
                        + " has no GPU config \""
                        + gpuConfig
                        + "\"; it ran "
                        + configs.stream()
                            .map(ConfigResults::gpuConfig)
                            .collect(Collectors.joining(", "))));
  }

  /**
   * How much faster {@code candidate} ran the whole trace than {@code baseline}: the baseline's
   * mean simulated time over the candidate's (above 1: the candidate is faster).
   *
   * @throws IllegalArgumentException when the run lacks either config
   * @throws IllegalStateException when either has no simulated time (no succeeded replica, or no
   *     known core clock)
   */
  public double speedup(String baseline, String candidate) {
    ConfigResults base = config(baseline);
    ConfigResults other = config(candidate);
    return ratio(base, base.total(), other, other.total());
  }

  /**
   * How much faster {@code candidate} ran one kernel than {@code baseline}: the baseline's mean
   * simulated time of the kernel whose name is or contains {@code kernel} over the candidate's.
   *
   * @throws IllegalArgumentException when the run lacks either config, or the name matches no
   *     kernel or several ({@link ConfigResults#kernel(String)})
   * @throws IllegalStateException when either has no simulated time for it
   */
  public double speedup(String baseline, String candidate, String kernel) {
    ConfigResults base = config(baseline);
    ConfigResults other = config(candidate);
    KernelComparison baseKernel = base.kernel(kernel);
    KernelComparison otherKernel = other.kernel(baseKernel.name(), baseKernel.instance());
    return ratio(base, baseKernel, other, otherKernel);
  }

  /**
   * The speedup of {@code candidate} over {@code baseline} for every kernel both ran, in the
   * baseline's log order, then the whole trace ({@link KernelComparison#TOTAL}).
   *
   * @throws IllegalArgumentException when the run lacks either config
   * @throws IllegalStateException when either has no simulated times
   */
  public List<KernelSpeedup> speedups(String baseline, String candidate) {
    ConfigResults base = config(baseline);
    ConfigResults other = config(candidate);
    List<KernelSpeedup> speedups = new ArrayList<>();
    for (KernelComparison baseKernel : base.kernels()) {
      other.kernels().stream()
          .filter(
              kernel ->
                  kernel.name().equals(baseKernel.name())
                      && kernel.instance() == baseKernel.instance())
          .findFirst()
          .ifPresent(
              otherKernel ->
                  speedups.add(
                      new KernelSpeedup(
                          baseKernel.name(),
                          baseKernel.instance(),
                          ratio(base, baseKernel, other, otherKernel))));
    }
    speedups.add(
        new KernelSpeedup(
            KernelComparison.TOTAL, 0, ratio(base, base.total(), other, other.total())));
    return List.copyOf(speedups);
  }

  private static double ratio(
      ConfigResults base,
      KernelComparison baseKernel,
      ConfigResults other,
      KernelComparison otherKernel) {
    Spread baseTime = time(base, baseKernel);
    Spread otherTime = time(other, otherKernel);
    return baseTime.mean() / otherTime.mean();
  }

  private static Spread time(ConfigResults config, KernelComparison kernel) {
    Spread time = kernel.simulatedTimeUs();
    if (time.isEmpty() || time.mean() <= 0) {
      throw new IllegalStateException(
          "no simulated time of \""
              + kernel.name()
              + "\" on "
              + config.gpuConfig()
              + ": "
              + (config.succeeded() == 0
                  ? "none of its " + config.replicas() + " replicas succeeded"
                  : config.clockMhz() == null
                      ? "its core clock is unknown (" + String.join("; ", config.notes()) + ")"
                      : "its replicas took no time on it")
              + "; compare cycles() instead");
    }
    return time;
  }
}
