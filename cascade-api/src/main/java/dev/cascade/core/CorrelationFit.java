package dev.cascade.core;

import java.util.List;

/**
 * How well simulated numbers follow measured ones over a trace's kernels, as Accel-Sim's {@code
 * util/plotting/plot-correlation.py} reports them (there per application, here per kernel), with
 * {@code hw} the measured and {@code sim} the simulated value of each of the {@code n} kernels:
 *
 * <ul>
 *   <li>{@code pearson}: the correlation coefficient of {@code hw} and {@code sim} ({@code
 *       numpy.corrcoef}); null when fewer than two kernels or either side does not vary
 *   <li>{@code meanAbsErrorPct}: the mean of {@code |sim - hw| / hw * 100} (its "Err", or MAE)
 *   <li>{@code aggregateErrorPct}: {@code sum |sim - hw| / sum hw * 100} (its "Agg_Err")
 *   <li>{@code nrmse}: {@code sqrt(mean((sim - hw)^2)) / mean(hw)} (its "NMSE"/NRMSE)
 * </ul>
 *
 * Kernels with a measured value of 0 are left out (no relative error can be taken).
 */
public record CorrelationFit(
    int n, Double pearson, double meanAbsErrorPct, double aggregateErrorPct, double nrmse) {

  public CorrelationFit {
    if (n < 1) {
      throw new IllegalArgumentException("a fit needs at least one kernel; got " + n);
    }
  }

  /** The fit of {@code simulated} to {@code measured}, pairwise; null when no pair counts. */
  public static CorrelationFit of(List<Double> measured, List<Double> simulated) {
    if (measured.size() != simulated.size()) {
      throw new IllegalArgumentException(
          measured.size() + " measured values cannot pair with " + simulated.size() + " simulated");
    }
    double sumHw = 0;
    double sumSim = 0;
    double sumAbs = 0;
    double sumPct = 0;
    double sumSquares = 0;
    int n = 0;
    for (int i = 0; i < measured.size(); i++) {
      Double hw = measured.get(i);
      Double sim = simulated.get(i);
      if (hw == null || sim == null || !(hw > 0)) {
        continue;
      }
      n++;
      sumHw += hw;
      sumSim += sim;
      sumAbs += Math.abs(sim - hw);
      sumPct += Math.abs(sim - hw) / hw * 100;
      sumSquares += (sim - hw) * (sim - hw);
    }
    if (n == 0) {
      return null;
    }
    double meanHw = sumHw / n;
    double meanSim = sumSim / n;
    double covariance = 0;
    double varHw = 0;
    double varSim = 0;
    for (int i = 0; i < measured.size(); i++) {
      Double hw = measured.get(i);
      Double sim = simulated.get(i);
      if (hw == null || sim == null || !(hw > 0)) {
        continue;
      }
      covariance += (hw - meanHw) * (sim - meanSim);
      varHw += (hw - meanHw) * (hw - meanHw);
      varSim += (sim - meanSim) * (sim - meanSim);
    }
    Double pearson =
        n < 2 || varHw == 0 || varSim == 0 ? null : covariance / Math.sqrt(varHw * varSim);
    return new CorrelationFit(
        n, pearson, sumPct / n, sumAbs / sumHw * 100, Math.sqrt(sumSquares / n) / meanHw);
  }
}
