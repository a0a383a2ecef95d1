package dev.cascade.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One number across a GPU config's replicas: how many replicas had it, their mean, standard
 * deviation, minimum and maximum, and each replica's value.
 *
 * <p>{@code stdev} is the <em>sample</em> standard deviation (the sum of squared deviations divided
 * by {@code n - 1}), and 0 when {@code n} is 1. When {@code n} is 0 (no replica had the number)
 * every statistic is 0 and {@code values} is empty: look at {@code n} before reading them. No
 * statistic is ever NaN or infinite.
 *
 * @param n how many replicas had the number
 * @param values each replica's value, in the order of the replicas listed beside the spread (see
 *     {@link KernelComparison#replicas()})
 */
public record Spread(
    int n, double mean, double stdev, double min, double max, List<Double> values) {

  private static final Spread EMPTY = new Spread(0, 0, 0, 0, 0, List.of());

  public Spread {
    values = List.copyOf(values);
    if (n != values.size()) {
      throw new IllegalArgumentException(
          "a spread of " + n + " replicas needs " + n + " values; got " + values.size());
    }
    for (Double value : values) {
      requireFinite("value", value);
    }
    requireFinite("mean", mean);
    requireFinite("stdev", stdev);
    requireFinite("min", min);
    requireFinite("max", max);
    if (n == 0 && (mean != 0 || stdev != 0 || min != 0 || max != 0)) {
      throw new IllegalArgumentException(
          "an empty spread has every statistic 0; got mean "
              + mean
              + ", stdev "
              + stdev
              + ", min "
              + min
              + ", max "
              + max);
    }
    if (stdev < 0) {
      throw new IllegalArgumentException("stdev cannot be negative; got " + stdev);
    }
    if (min > mean || mean > max) {
      throw new IllegalArgumentException(
          "a spread needs min <= mean <= max; got " + min + ", " + mean + ", " + max);
    }
  }

  /** The spread of no values: {@code n} is 0 and every statistic 0. */
  public static Spread empty() {
    return EMPTY;
  }

  /** The spread of {@code values}, one per replica, in replica order. */
  public static Spread of(List<Double> values) {
    List<Double> copy = List.copyOf(values);
    int n = copy.size();
    if (n == 0) {
      return EMPTY;
    }
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double sum = 0;
    for (double value : copy) {
      requireFinite("value", value);
      min = Math.min(min, value);
      max = Math.max(max, value);
      sum += value;
    }
    // Rounding can put the mean of equal values a hair outside them.
    double mean = Math.clamp(sum / n, min, max);
    double squares = 0;
    for (double value : copy) {
      double deviation = value - mean;
      squares += deviation * deviation;
    }
    double stdev = n == 1 ? 0 : Math.sqrt(squares / (n - 1));
    return new Spread(n, mean, stdev, min, max, copy);
  }

  /** The spread of {@code values}, one per replica, in replica order. */
  public static Spread of(double... values) {
    return of(Arrays.stream(values).boxed().toList());
  }

  /** True when no replica had the number ({@code n} is 0). */
  public boolean isEmpty() {
    return n == 0;
  }

  private static void requireFinite(String what, Double value) {
    Objects.requireNonNull(value, what);
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("a spread's " + what + " must be finite; got " + value);
    }
  }
}
