package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Measure;
import dev.cascade.core.Measure.Source;
import dev.cascade.core.MeasureChange;
import dev.cascade.core.Measures;
import dev.cascade.core.Spread;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of measures: {@code GET /api/measures}, the {@code measures} list of a run's results,
 * and how a requested measure of a config compares with the baseline's.
 */
public final class MeasureJson {

  private MeasureJson() {}

  /** How a statistic is asked for by name, for {@code GET /api/measures}. */
  public static final String HOW_TO_ASK =
      "Ask for any statistic the simulator printed in a kernel's block by its own name"
          + " (?measures=L2_total_cache_miss_rate, cascade ... --measure NAME): each kernel's value"
          + " is the one printed in its block, the whole trace's the one printed with its last"
          + " kernel. NAME:change takes a running total's change since the previous kernel (the"
          + " whole trace adds them up); NAME:sum, NAME:mean, NAME:max and NAME:last choose how the"
          + " whole trace is made from the kernels' values.";

  /** One measure: what it is, what it counts and how the whole trace's value is made. */
  public static Map<String, Object> write(Measure measure) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", measure.id());
    fields.put("label", measure.label());
    fields.put("unit", measure.unit());
    fields.put("direction", measure.direction().wireName());
    fields.put("counts", measure.counts());
    fields.put("source", writeSource(measure.source()));
    fields.put("aggregation", measure.aggregation().wireName());
    fields.put("default", measure.isDefault());
    return fields;
  }

  private static Map<String, Object> writeSource(Source source) {
    Map<String, Object> fields = new LinkedHashMap<>();
    switch (source) {
      case Source.KernelCycles cycles -> fields.put("kind", "kernel_cycles");
      case Source.KernelInstructions instructions -> fields.put("kind", "kernel_instructions");
      case Source.Statistic statistic -> {
        fields.put("kind", "statistic");
        fields.put("key", statistic.key());
      }
      case Source.Change change -> {
        fields.put("kind", "change");
        fields.put("key", change.key());
      }
      case Source.Ratio ratio -> {
        fields.put("kind", "ratio");
        fields.put("numerator", ratio.numerator());
        fields.put("denominator", ratio.denominator());
      }
      case Source.PerCoreClock time -> {
        fields.put("kind", "per_core_clock");
        fields.put("cycles", time.cycles());
      }
    }
    return fields;
  }

  /**
   * The measures a results document lists, by id: the defaults as they are, any other as {@link
   * Measures#parse} reads its id (the id is the request's name for it).
   */
  public static List<Measure> readList(JsonNode results) {
    JsonNode measures = results.path("measures");
    if (!measures.isArray()) {
      return Measures.DEFAULTS;
    }
    return Measures.withDefaults(
        Measures.parseAll(
            Fields.of(results, "a run's results")
                .list("measures", node -> Fields.of(node, "a measure").text("id"))));
  }

  /**
   * {@code GET /api/measures}: the measures results compare unasked ({@code defaults}: the four and
   * the simulator's own), the forms, and the statistics a run's kernels have.
   */
  public static Map<String, Object> writeCatalog(List<Measure> defaults, List<String> statistics) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("defaults", Measures.withDefaults(defaults).stream().map(MeasureJson::write).toList());
    body.put("how_to_ask", HOW_TO_ASK);
    body.put("forms", Measures.FORMS);
    body.put("statistics", statistics);
    return body;
  }

  /**
   * How a measure of a config compares with the baseline's: {@code ratio} (config mean / baseline
   * mean), {@code difference}, {@code relative}, {@code direction} (higher, lower, or the same
   * within spread) and {@code verdict} (better, worse, same within spread; null when the measure is
   * neither better higher nor lower); null when either has no replica.
   */
  public static Map<String, Object> writeChange(Measure measure, Spread baseline, Spread config) {
    MeasureChange change = MeasureChange.between(baseline, config, false);
    if (change == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("ratio", baseline.mean() == 0 ? null : config.mean() / baseline.mean());
    fields.put("difference", change.difference());
    fields.put("relative", change.relative());
    fields.put("direction", change.direction().wireName());
    fields.put("verdict", verdict(measure, change.direction()));
    return fields;
  }

  private static String verdict(Measure measure, MeasureChange.Direction direction) {
    if (direction == MeasureChange.Direction.SAME_WITHIN_SPREAD) {
      return "same_within_spread";
    }
    return switch (measure.direction()) {
      case NEITHER -> null;
      case HIGHER_IS_BETTER -> direction == MeasureChange.Direction.HIGHER ? "better" : "worse";
      case LOWER_IS_BETTER -> direction == MeasureChange.Direction.LOWER ? "better" : "worse";
    };
  }
}
