package dev.cascade.core;

import java.util.Objects;

/**
 * One kernel launch, simulated and measured on the GPU, paired by launch order.
 *
 * @param name the simulated kernel's name (its symbol in the sim's log)
 * @param instance its launch among those of its name, from 0
 * @param measuredName the name Nsight Compute gave the kernel it was paired with
 * @param measuredCycles {@code gpc__cycles_elapsed.max}; null when the CSV lacks it
 * @param simulatedCycles the mean of the config's succeeded replicas
 * @param measuredTimeUs {@code gpu__time_duration.sum} in microseconds; null when the CSV lacks it
 * @param simulatedTimeUs the mean simulated time ({@code cycles / core clock}); null when the clock
 *     is unknown
 */
public record KernelMatch(
    String name,
    int instance,
    String measuredName,
    Double measuredCycles,
    double simulatedCycles,
    Double measuredTimeUs,
    Double simulatedTimeUs) {

  public KernelMatch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(measuredName, "measuredName");
  }

  /** {@code (simulated - measured) / measured * 100}; null when either is missing or measured 0. */
  public Double cyclesErrorPct() {
    return error(measuredCycles, simulatedCycles);
  }

  /** As {@link #cyclesErrorPct()}, for time. */
  public Double timeErrorPct() {
    return error(measuredTimeUs, simulatedTimeUs);
  }

  private static Double error(Double measured, Double simulated) {
    return measured == null || simulated == null || !(measured > 0)
        ? null
        : (simulated - measured) / measured * 100;
  }
}
