package dev.cascade.core;

import dev.cascade.core.Measure.Aggregation;
import dev.cascade.core.Measure.Direction;
import dev.cascade.core.Measure.Source;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The measures results compare: the four of every run, and any statistic the simulator printed,
 * named in a request ({@code ?measures=}, {@code --measure}) by its own name.
 *
 * <p>A request names a measure in one of these forms:
 *
 * <ul>
 *   <li>{@code cycles}, {@code instructions}, {@code ipc}, {@code simulated_time_us}: the defaults;
 *   <li>{@code NAME}: the statistic as printed in each kernel's block ({@code
 *       L2_total_cache_miss_rate}); the whole trace's value is the one printed with its last
 *       kernel, which for a running total is the whole trace's figure;
 *   <li>{@code NAME:change}: a running total's change since the previous kernel of the same sim (as
 *       {@code get_stats.py -k} diffs its {@code collect_aggregate} statistics); the whole trace is
 *       the sum of the changes;
 *   <li>{@code NAME:sum}, {@code NAME:mean}, {@code NAME:max}, {@code NAME:last}: the statistic as
 *       printed, with that whole-trace aggregation.
 * </ul>
 */
public final class Measures {

  /** The kernel's own simulated cycles. */
  public static final Measure CYCLES =
      new Measure(
          "cycles",
          "Cycles",
          "cycles",
          Direction.LOWER_IS_BETTER,
          "cycles of the core clock the kernel took (the difference of the simulator's running"
              + " gpu_tot_sim_cycle)",
          new Source.KernelCycles(),
          Aggregation.SUM);

  /** The kernel's own instructions, thread-level as the simulator counts them. */
  public static final Measure INSTRUCTIONS =
      new Measure(
          "instructions",
          "Thread insn (sim)",
          "instructions",
          Direction.NEITHER,
          "thread-level instructions the simulator executed (the difference of its running"
              + " gpu_tot_sim_insn)",
          new Source.KernelInstructions(),
          Aggregation.SUM);

  /** Thread-level instructions per core-clock cycle. */
  public static final Measure IPC =
      new Measure(
          "ipc",
          "IPC",
          "instructions/cycle",
          Direction.HIGHER_IS_BETTER,
          "thread-level instructions per cycle of the core clock; the whole trace's is its"
              + " instructions over its cycles",
          new Source.Ratio("instructions", "cycles"),
          Aggregation.RATIO_OF_TOTALS);

  /** Simulated time: cycles over the config's core clock. */
  public static final Measure SIMULATED_TIME_US =
      new Measure(
          "simulated_time_us",
          "Sim time",
          "us",
          Direction.LOWER_IS_BETTER,
          "simulated microseconds: cycles over the config's core clock in MHz",
          new Source.PerCoreClock("cycles"),
          Aggregation.SUM);

  /** What every run's results compare, in this order, unless a request asks for more. */
  public static final List<Measure> DEFAULTS =
      List.of(CYCLES, INSTRUCTIONS, IPC, SIMULATED_TIME_US);

  /** How many measures beyond the defaults one request may name. */
  public static final int MAX_REQUESTED = 32;

  /** The forms after {@code NAME:}, for errors and {@code GET /api/measures}. */
  public static final List<String> FORMS = List.of("change", "sum", "mean", "max", "last");

  /** The fields of a results row: a statistic of the same name could not sit beside them. */
  private static final Set<String> ROW_FIELDS =
      Set.of(
          "name",
          "readable_name",
          "label",
          "instance",
          "n",
          "replicas",
          "speedup",
          "versus_baseline");

  private Measures() {}

  /** The default measure with this id, if it is one. */
  public static Optional<Measure> findDefault(String id) {
    return DEFAULTS.stream().filter(measure -> measure.id().equals(id)).findFirst();
  }

  /**
   * The measure a request names ({@code cycles}, {@code L2_total_cache_miss_rate}, {@code
   * L2_total_cache_misses:change}; see the class comment).
   *
   * @throws CascadeException {@code invalid} naming {@code measures} and the text when it is no
   *     measure's name
   */
  public static Measure parse(String text) {
    String name = text == null ? "" : text.strip();
    Optional<Measure> known = findDefault(name);
    if (known.isPresent()) {
      return known.get();
    }
    int colon = name.lastIndexOf(':');
    String key = colon < 0 ? name : name.substring(0, colon).strip();
    String form = colon < 0 ? "" : name.substring(colon + 1).strip();
    if (key.isEmpty() || (colon >= 0 && !FORMS.contains(form))) {
      throw invalid(
          text,
          colon >= 0 && !key.isEmpty()
              ? "\":"
                  + form
                  + "\" is no form of a statistic; use one of :"
                  + String.join(", :", FORMS)
              : "name a statistic the simulator prints, or one of "
                  + String.join(", ", DEFAULTS.stream().map(Measure::id).toList()));
    }
    if (ROW_FIELDS.contains(key)) {
      throw invalid(text, "\"" + key + "\" is a field of every results row, not a statistic");
    }
    try {
      return switch (form) {
        case "" -> statistic(key, Aggregation.LAST);
        case "change" -> change(key);
        default -> statistic(key, Aggregation.valueOf(form.toUpperCase(Locale.ROOT)));
      };
    } catch (IllegalArgumentException e) {
      throw invalid(
          text, "a statistic's name has at most 200 characters and none of : ( ) , { } or quotes");
    }
  }

  /**
   * The measures a request's comma-separated list names (repeated names once, in order); empty for
   * null or blank.
   *
   * @throws CascadeException {@code invalid} naming {@code measures} for a name that is no
   *     measure's, or more than {@link #MAX_REQUESTED}
   */
  public static List<Measure> parseList(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      return List.of();
    }
    return parseAll(List.of(commaSeparated.split(",", -1)));
  }

  /** {@link #parseList} of names given one by one (the CLI's repeated {@code --measure}). */
  public static List<Measure> parseAll(Collection<String> names) {
    Map<String, Measure> measures = new LinkedHashMap<>();
    for (String name : names) {
      Measure measure = parse(name);
      measures.putIfAbsent(measure.id(), measure);
    }
    long extra = measures.values().stream().filter(measure -> !measure.isDefault()).count();
    if (extra > MAX_REQUESTED) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "measures names "
              + extra
              + " statistics; at most "
              + MAX_REQUESTED
              + " can be compared at once (the tidy CSV has every statistic as a column)",
          "measures");
    }
    return List.copyOf(measures.values());
  }

  /**
   * The measures results show for a request: the defaults, then the requested ones that are not
   * defaults, in request order.
   */
  public static List<Measure> withDefaults(List<Measure> requested) {
    // One measure per id: results key spreads and columns by it, so the first definition wins (a
    // simulator's own "energy_uj" over the same name asked for in a request).
    Map<String, Measure> all = new LinkedHashMap<>();
    for (Measure measure : DEFAULTS) {
      all.put(measure.id(), measure);
    }
    for (Measure measure : requested) {
      all.putIfAbsent(measure.id(), measure);
    }
    return List.copyOf(all.values());
  }

  /** A statistic as printed in each kernel's block, whole trace by {@code aggregation}. */
  public static Measure statistic(String key, Aggregation aggregation) {
    String id = aggregation == Aggregation.LAST ? key : key + ":" + aggregation.wireName();
    String whole =
        switch (aggregation) {
          case LAST ->
              "the whole trace is the value printed with its last kernel (a running total's"
                  + " whole-trace figure)";
          case SUM -> "the whole trace is the kernels' values added up";
          case MEAN -> "the whole trace is the mean of the kernels' values";
          case MAX -> "the whole trace is the largest kernel value";
          case RATIO_OF_TOTALS ->
              throw new IllegalArgumentException("a statistic is not a ratio of two measures");
        };
    return new Measure(
        id,
        id,
        "",
        Direction.NEITHER,
        "\"" + key + "\" as the simulator printed it in each kernel's statistics block; " + whole,
        new Source.Statistic(key),
        aggregation);
  }

  /** A running total's change since the previous kernel of the same sim, summed for the trace. */
  public static Measure change(String key) {
    return new Measure(
        key + ":change",
        key + " (change)",
        "",
        Direction.NEITHER,
        "the change in the simulator's running total \""
            + key
            + "\" since the sim's previous kernel; the whole trace is the changes added up",
        new Source.Change(key),
        Aggregation.SUM);
  }

  /**
   * Up to {@code max} of {@code known} closest to {@code name} (edit distance, case ignored), for
   * "did you mean" in errors.
   */
  public static List<String> nearest(String name, Collection<String> known, int max) {
    String lower = name.toLowerCase(Locale.ROOT);
    return known.stream()
        .distinct()
        .map(candidate -> Map.entry(candidate, distance(lower, candidate.toLowerCase(Locale.ROOT))))
        .filter(entry -> entry.getValue() <= Math.max(3, lower.length() / 3))
        .sorted(
            Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .limit(max)
        .map(Map.Entry::getKey)
        .toList();
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static CascadeException invalid(String text, String why) {
    String shown = text == null ? "" : text.length() > 80 ? text.substring(0, 80) + "..." : text;
    return new CascadeException(
        ErrorCode.INVALID, "measures: \"" + shown + "\" is not a measure: " + why, "measures");
  }
}
