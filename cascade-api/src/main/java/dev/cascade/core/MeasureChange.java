package dev.cascade.core;

import java.util.Objects;

/**
 * How one measure (cycles, IPC or simulated time) of a kernel changed from a baseline run to
 * another run on the same config: the two means, the difference, and whether it is larger than the
 * replicas' spread, by the rule of {@link Speedup}: when the two runs' replica ranges {@code
 * [min..max]} overlap, the change is {@link Direction#SAME_WITHIN_SPREAD}.
 *
 * @param baseline the baseline run's replicas
 * @param run the other run's replicas
 * @param difference {@code run mean - baseline mean}
 * @param relative {@code difference / baseline mean}; null when the baseline's mean is 0
 * @param direction higher, lower, or the same within spread
 * @param speedup for cycles and simulated time, {@code baseline mean / run mean} with faster or
 *     slower ({@link Speedup#between}); null for IPC, where higher is better and the direction says
 *     it all
 */
public record MeasureChange(
    Spread baseline,
    Spread run,
    double difference,
    Double relative,
    Direction direction,
    Speedup speedup) {

  /** Which way the run's mean moved, when beyond the spread. */
  public enum Direction {
    HIGHER("higher"),
    LOWER("lower"),
    SAME_WITHIN_SPREAD("same_within_spread");

    private final String wireName;

    Direction(String wireName) {
      this.wireName = wireName;
    }

    /** The name in JSON: {@code higher}, {@code lower}, {@code same_within_spread}. */
    public String wireName() {
      return wireName;
    }
  }

  public MeasureChange {
    Objects.requireNonNull(baseline, "baseline");
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(direction, "direction");
  }

  /**
   * The change from {@code baseline} to {@code run}; with {@code timeLike}, also the speedup (for
   * cycles and time, where lower is faster). Null when either side has no replica.
   */
  public static MeasureChange between(Spread baseline, Spread run, boolean timeLike) {
    Objects.requireNonNull(baseline, "baseline");
    Objects.requireNonNull(run, "run");
    if (baseline.isEmpty() || run.isEmpty()) {
      return null;
    }
    double difference = run.mean() - baseline.mean();
    boolean overlap = baseline.min() <= run.max() && run.min() <= baseline.max();
    Direction direction =
        overlap
            ? Direction.SAME_WITHIN_SPREAD
            : difference > 0 ? Direction.HIGHER : Direction.LOWER;
    return new MeasureChange(
        baseline,
        run,
        difference,
        baseline.mean() == 0 ? null : difference / baseline.mean(),
        direction,
        timeLike ? Speedup.between(baseline, run) : null);
  }
}
