package dev.cascade.core.internal.sampling;

import dev.cascade.core.SampledEstimate;
import dev.cascade.core.SamplingPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whole-trace estimates from a sampled sim's representatives: each measure's value is the sum over
 * strata of the representative's value times the stratum's weight ({@link SamplingPlan.Stratum}),
 * which is the projection Sieve makes (a representative's cycles per instruction, times the
 * stratum's instructions). Pure.
 */
public final class SampledEstimator {

  private SampledEstimator() {}

  /**
   * One replica's estimate of each measure in {@code ids}, from its representatives' values by
   * trace position; empty when a representative is missing or lacks a value (its sim did not finish
   * it), since the estimate would then leave strata out.
   */
  public static Optional<Map<String, Double>> replica(
      SamplingPlan plan, Map<Integer, Map<String, Double>> valuesByPosition, List<String> ids) {
    Map<String, Double> sums = new LinkedHashMap<>();
    ids.forEach(id -> sums.put(id, 0.0));
    for (SamplingPlan.Stratum stratum : plan.strata()) {
      Map<String, Double> values = valuesByPosition.get(stratum.representative());
      if (values == null) {
        return Optional.empty();
      }
      for (String id : ids) {
        Double value = values.get(id);
        if (value == null || !Double.isFinite(value)) {
          return Optional.empty();
        }
        sums.merge(id, value * stratum.weight(), Double::sum);
      }
    }
    return Optional.of(sums);
  }

  /**
   * The interval of a measure estimated per replica: the replicas' mean, and a relative half-width
   * of {@code sqrt(predictedError^2 + spread^2)}, where spread is half the replicas' range over the
   * mean (0 for one replica). Empty values give an empty interval of NaN.
   */
  public static SampledEstimate.Interval interval(List<Double> perReplica, double predictedError) {
    if (perReplica.isEmpty()) {
      return new SampledEstimate.Interval(
          Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    double sum = 0;
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (double value : perReplica) {
      sum += value;
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
    double mean = sum / perReplica.size();
    double spread = mean == 0 ? 0 : (max - min) / 2 / Math.abs(mean);
    double relative = Math.sqrt(predictedError * predictedError + spread * spread);
    double half = Math.abs(mean) * relative;
    return new SampledEstimate.Interval(mean, mean - half, mean + half, relative, spread);
  }
}
