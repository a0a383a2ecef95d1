package dev.cascade.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A sampled config's whole-trace numbers: estimated from the representatives of its {@link
 * SamplingPlan}, each weighted by what it stands for, with an interval that combines the sampling
 * error (predicted from the spread of features within strata) and the replicas' spread. The
 * config's {@link ConfigResult#total()} holds the estimates replica by replica, so speedups between
 * two configs sampled with the same plan compare estimates made alike. See docs/results.md,
 * "Sampled runs".
 *
 * @param simulatedKernels how many kernels each replica simulated (the representatives)
 * @param totalKernels the trace's kernel launches
 * @param simulatedWarpInstructions the representatives' warp instructions (trace counts)
 * @param totalWarpInstructions the trace's warp instructions (trace counts)
 * @param predictedError the plan's predicted sampling error, relative, about 95%
 * @param measures per measure id ({@code cycles}, {@code instructions}, {@code simulated_time_us},
 *     and requested additive statistics) the estimate over the succeeded replicas and its interval
 * @param simulatedSeconds the mean wall time of the succeeded replicas' sims, in seconds; null when
 *     unknown
 * @param fullTraceSecondsEstimate what simulating the whole trace would take at the same rate of
 *     warp instructions per second; null when unknown
 * @param validation the sample checked against a simulation of the whole trace; null when the entry
 *     did not ask for it
 */
public record SampledEstimate(
    int simulatedKernels,
    int totalKernels,
    long simulatedWarpInstructions,
    long totalWarpInstructions,
    double predictedError,
    Map<String, Interval> measures,
    Double simulatedSeconds,
    Double fullTraceSecondsEstimate,
    Validation validation) {

  public SampledEstimate {
    measures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(measures));
  }

  /**
   * One measure's whole-trace estimate.
   *
   * @param estimate the mean over replicas of each replica's weighted estimate
   * @param low the interval's low end
   * @param high the interval's high end
   * @param relative the interval's half-width over the estimate: {@code sqrt(sampling^2 +
   *     replicas^2)}, where replicas is half the replicas' range over the mean
   * @param replicaSpread the replicas' part: half their range over the mean (0 for one replica)
   */
  public record Interval(
      double estimate, double low, double high, double relative, double replicaSpread) {

    /** True when {@code value} lies inside the interval (ends included). */
    public boolean contains(double value) {
      return value >= low && value <= high;
    }
  }

  /**
   * The sample's real error, from a simulation of the whole trace on the same config.
   *
   * @param runId the run that simulated the whole trace
   * @param state that run's state ({@code active} while it runs)
   * @param fullCycles its mean total cycles; null until it succeeded
   * @param realError {@code estimate / full - 1} of total cycles; null until it succeeded
   */
  public record Validation(String runId, String state, Double fullCycles, Double realError) {
    public Validation {
      Objects.requireNonNull(runId, "runId");
      Objects.requireNonNull(state, "state");
    }
  }

  /** The share of warp instructions simulated, 0 to 1. */
  public double simulatedShare() {
    return totalWarpInstructions > 0
        ? (double) simulatedWarpInstructions / totalWarpInstructions
        : totalKernels == 0 ? 0 : (double) simulatedKernels / totalKernels;
  }

  /** The cycles' interval, as a relative half-width; the predicted error when there is none. */
  public double cyclesInterval() {
    Interval cycles = measures.get(Measures.CYCLES.id());
    return cycles == null ? predictedError : cycles.relative();
  }

  /**
   * The one line results say: {@code estimated from 14 of 1008 kernels (4.1% of warp instructions),
   * ±2.3%}.
   */
  public String summary() {
    return "estimated from "
        + simulatedKernels
        + " of "
        + totalKernels
        + " kernels ("
        + SamplingPlan.percent(simulatedShare())
        + " of warp instructions), \u00b1"
        + SamplingPlan.percent(cyclesInterval());
  }
}
