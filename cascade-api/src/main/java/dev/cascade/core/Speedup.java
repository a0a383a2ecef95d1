package dev.cascade.core;

import java.util.Objects;

/**
 * How a config's number compares with the baseline's: the speedup {@code baseline mean / config
 * mean} (above 1 the config is faster, below 1 slower) and whether the difference is larger than
 * the replicas' spread.
 *
 * <p>The spread rule: the difference is real only when the two configs' replica ranges {@code
 * [min..max]} do not overlap. Overlapping ranges mean some replica of the slower config did as well
 * as some replica of the faster one, so the two are {@link Verdict#SAME_WITHIN_SPREAD} and never
 * ranked. With one replica each a range is a single value, so any difference counts: Accel-Sim is
 * deterministic (the same trace and config give the same cycles every run), and so is the emulator
 * unless replica jitter is asked for.
 *
 * @param ratio {@code baseline mean / config mean}; 1 for the baseline itself
 * @param verdict faster, slower, or the same within the spread
 */
public record Speedup(double ratio, Verdict verdict) {

  /** What the comparison says, for people and for sorting. */
  public enum Verdict {
    FASTER("faster"),
    SLOWER("slower"),
    SAME_WITHIN_SPREAD("same_within_spread");

    private final String wireName;

    Verdict(String wireName) {
      this.wireName = wireName;
    }

    /** The name in JSON and CSV: {@code faster}, {@code slower}, {@code same_within_spread}. */
    public String wireName() {
      return wireName;
    }
  }

  public Speedup {
    if (!(ratio > 0 && Double.isFinite(ratio))) {
      throw new IllegalArgumentException("a speedup must be a positive number; got " + ratio);
    }
    Objects.requireNonNull(verdict, "verdict");
  }

  /**
   * The speedup of {@code config} over {@code baseline}, under the spread rule above; null when
   * either has no replica or a mean of 0 (no ratio can be taken).
   */
  public static Speedup between(Spread baseline, Spread config) {
    Objects.requireNonNull(baseline, "baseline");
    Objects.requireNonNull(config, "config");
    if (baseline.isEmpty() || config.isEmpty() || baseline.mean() <= 0 || config.mean() <= 0) {
      return null;
    }
    double ratio = baseline.mean() / config.mean();
    boolean overlap = baseline.min() <= config.max() && config.min() <= baseline.max();
    Verdict verdict =
        overlap
            ? Verdict.SAME_WITHIN_SPREAD
            : config.mean() < baseline.mean() ? Verdict.FASTER : Verdict.SLOWER;
    return new Speedup(ratio, verdict);
  }
}
