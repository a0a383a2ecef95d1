package dev.cascade.core;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A number results compare across configs and replicas: the four of every run ({@link
 * Measures#DEFAULTS}: cycles, instructions, IPC, simulated time) or any statistic the simulator
 * printed, asked for by its own name. A measure is data: results, speedups, spreads, CSV, the UI's
 * and the CLI's tables all follow a run's list of measures.
 *
 * @param id the name in requests, JSON keys and CSV columns ({@code cycles}, {@code
 *     L2_total_cache_miss_rate})
 * @param label the column heading for people ({@code Cycles})
 * @param unit what one of it is ({@code cycles}, {@code us}, {@code instructions/cycle}); empty
 *     when the simulator does not say
 * @param direction which way is better, or {@link Direction#NEITHER}
 * @param counts what the figure counts, in words ({@code cycles of the core clock})
 * @param source where a kernel's value comes from
 * @param aggregation how the whole trace's value is made from its kernels'
 */
public record Measure(
    String id,
    String label,
    String unit,
    Direction direction,
    String counts,
    Source source,
    Aggregation aggregation) {

  /**
   * Ids are statistic names as a simulator prints them (blanks, brackets and {@code #} allowed; no
   * {@code : ( ) , { } "}), with an optional {@code :form} after them ({@code :change}).
   */
  private static final Pattern ID =
      Pattern.compile("[^:(),{}\"\\s](?:[^:(),{}\"\\p{Cntrl}]{0,198}[^:(),{}\"\\s])?(?::[a-z]+)?");

  /** Which way a measure is better. */
  public enum Direction {
    /** Fewer cycles, less time, fewer misses. */
    LOWER_IS_BETTER("lower_is_better"),
    /** More instructions per cycle, more hits. */
    HIGHER_IS_BETTER("higher_is_better"),
    /** A count that says what happened, not how well (instructions simulated). */
    NEITHER("neither");

    private final String wireName;

    Direction(String wireName) {
      this.wireName = wireName;
    }

    /** The name in JSON. */
    public String wireName() {
      return wireName;
    }
  }

  /** How the whole trace's value is made from its kernels' values, per replica. */
  public enum Aggregation {
    /** The kernels' values added up (cycles, instructions, a counter's per-kernel changes). */
    SUM("sum"),
    /** The ratio of the two measures' whole-trace values ({@link Source.Ratio}). */
    RATIO_OF_TOTALS("ratio_of_totals"),
    /** The mean of the kernels' values (a per-kernel rate such as occupancy). */
    MEAN("mean"),
    /** The largest kernel value. */
    MAX("max"),
    /**
     * The value the simulator printed with the trace's last kernel: for a running total it is the
     * whole trace's figure.
     */
    LAST("last");

    private final String wireName;

    Aggregation(String wireName) {
      this.wireName = wireName;
    }

    /** The name in JSON. */
    public String wireName() {
      return wireName;
    }
  }

  /** Where one kernel's value of a measure comes from. */
  public sealed interface Source {

    /** The kernel's own simulated cycles, as the simulator's output gives them. */
    record KernelCycles() implements Source {}

    /** The kernel's own instructions, as the simulator's output gives them. */
    record KernelInstructions() implements Source {}

    /** A statistic as the simulator printed it in the kernel's block ({@code key = value}). */
    record Statistic(String key) implements Source {
      public Statistic {
        Objects.requireNonNull(key, "key");
      }
    }

    /**
     * A running total's change since the previous kernel of the same sim: what Accel-Sim's {@code
     * get_stats.py -k} does for its {@code collect_aggregate} statistics.
     */
    record Change(String key) implements Source {
      public Change {
        Objects.requireNonNull(key, "key");
      }
    }

    /** One measure divided by another, per replica (IPC is instructions over cycles). */
    record Ratio(String numerator, String denominator) implements Source {
      public Ratio {
        Objects.requireNonNull(numerator, "numerator");
        Objects.requireNonNull(denominator, "denominator");
      }
    }

    /** A measure in cycles divided by the config's core clock in MHz: microseconds. */
    record PerCoreClock(String cycles) implements Source {
      public PerCoreClock {
        Objects.requireNonNull(cycles, "cycles");
      }
    }
  }

  public Measure {
    Objects.requireNonNull(id, "id");
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "a measure's id is a statistic's name as the simulator prints it, at most 200"
              + " characters without : ( ) , { } or quotes, optionally followed by :FORM; got \""
              + id
              + "\"");
    }
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(aggregation, "aggregation");
    if ((source instanceof Source.Ratio) != (aggregation == Aggregation.RATIO_OF_TOTALS)) {
      throw new IllegalArgumentException(
          "measure \""
              + id
              + "\": a ratio's whole-trace value is the ratio of its totals, and only a ratio's");
    }
  }

  /** True for the four every run compares ({@link Measures#DEFAULTS}). */
  public boolean isDefault() {
    return Measures.DEFAULTS.contains(this);
  }
}
