package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * How fast the simulator ran a run's sims, next to earlier runs of the same trace and config on
 * each simulator build: so a slower build of the simulator shows. Speed is KIPS, thousands of
 * simulated thread-level instructions per second of wall time: each succeeded sim's final figure,
 * the {@code gpgpu_simulation_rate} (inst/sec) its last kernel's statistics block printed, which
 * Accel-Sim works out over the whole sim so far (its {@code latest_metrics}).
 *
 * @param runId the run
 * @param traceId its trace
 * @param configs one per GPU config of the run, in entry order
 */
public record RunSpeed(String runId, String traceId, List<Config> configs) {

  /** This run's median is below every earlier sim of a build, and this much below their median. */
  public static final double SLOWER_BELOW = 0.95;

  /** This run's median is above every earlier sim of a build, and this much above their median. */
  public static final double FASTER_ABOVE = 1.05;

  public RunSpeed {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(traceId, "traceId");
    configs = List.copyOf(configs);
  }

  /**
   * One GPU config of the run.
   *
   * @param gpuConfig the config's name
   * @param kernels the kernel window its sims ran ({@code "2-3"}); null for the whole trace.
   *     Earlier sims count only with the same window: other kernels run at other speeds
   * @param sims this run's succeeded sims of the config with a speed
   * @param medianKips their median KIPS; null when none has one
   * @param simulators the simulator builds this run's sims of the config ran on, as {@link
   *     Build#simulator} names them
   * @param earlier earlier succeeded sims of the same trace, config and window, one row per
   *     simulator build, the build with the most sims first
   */
  public record Config(
      String gpuConfig,
      String kernels,
      int sims,
      Double medianKips,
      List<String> simulators,
      List<Build> earlier) {

    public Config {
      Objects.requireNonNull(gpuConfig, "gpuConfig");
      simulators = List.copyOf(simulators);
      earlier = List.copyOf(earlier);
    }
  }

  /**
   * Earlier sims of one simulator build, and this run against them.
   *
   * @param simulator the build as a reader knows it: {@code Accel-Sim [build ...], GPGPU-Sim 4.2.0
   *     [build ...]}; {@code unknown build} for logs that named none
   * @param sims how many earlier succeeded sims ran on it
   * @param medianKips their median KIPS
   * @param minKips the slowest of them
   * @param maxKips the fastest of them
   * @param ratio this run's median over theirs ({@code 0.7}: this run ran at 70% of their speed);
   *     null when this run has no speed for the config
   * @param verdict {@code slower} when this run's median is below every one of them and under
   *     {@link #SLOWER_BELOW} times their median, {@code faster} the other way round ({@link
   *     #FASTER_ABOVE}), {@code within spread} otherwise; null without a ratio
   */
  public record Build(
      String simulator,
      int sims,
      double medianKips,
      double minKips,
      double maxKips,
      Double ratio,
      String verdict) {

    public static final String SLOWER = "slower";
    public static final String FASTER = "faster";
    public static final String WITHIN_SPREAD = "within spread";

    public Build {
      Objects.requireNonNull(simulator, "simulator");
      if (sims < 1) {
        throw new IllegalArgumentException("a build row needs at least one sim; got " + sims);
      }
    }
  }
}
