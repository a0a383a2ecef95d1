package dev.cascade.core;

import dev.cascade.accelsim.stats.GetStatsList;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Accel-Sim's stats file ({@code example_stats.yml}, what {@code get_stats.py -s} takes) as a set
 * of measures: each {@code collect_aggregate} regex becomes {@code NAME:change} (a running total's
 * change per kernel, as the script diffs them), each {@code collect_abs} regex {@code NAME:mean},
 * each {@code collect_rates} regex {@code NAME} (the value printed with the last kernel).
 *
 * <p>A regex's name is its text before {@code \s*=} (or {@code \s+=}, {@code =}), leading {@code
 * \s+} dropped and regex escapes removed ({@code \[} is {@code [}); a name the file gives a second
 * time is {@code NAME#2}, as Cascade's stats parser names a key's second occurrence in a block. A
 * regex whose value is not the number printed right after {@code =} (such as {@code
 * gpgpu_simulation_time}'s {@code (3 sec)}) is a statistic the parser does not keep: it is dropped
 * with a note, as is any statistic a run's kernels did not print ({@link #keptBy}).
 *
 * @param measures the measures, in the file's order: aggregate, abs, rates
 * @param notes what was dropped and why, for people
 */
public record GetStatsMeasures(List<Measure> measures, List<String> notes) {

  /** {@code NAME \s*=} then the value's group at once: {@code \s*(}, {@code \s+(} or {@code (}. */
  private static final Pattern NAMED =
      Pattern.compile("^(?:\\\\s[+*])?\\s*(.+?)\\s*(?:\\\\s[+*])?=(?:\\\\s[+*])?(.*)$");

  /** Characters that make a name a pattern rather than a literal, once escapes are gone. */
  private static final Pattern UNESCAPED_META = Pattern.compile("(?<!\\\\)[.*+?|(){}^$]");

  public GetStatsMeasures {
    measures = List.copyOf(measures);
    notes = List.copyOf(notes);
  }

  /**
   * Reads a stats file in the layout of {@code example_stats.yml}.
   *
   * @throws CascadeException {@code invalid} naming {@code measures_from} and {@code file:line}
   *     when the file is not in that layout or a regex is not one
   */
  public static GetStatsMeasures read(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    GetStatsList list;
    try {
      list = GetStatsList.read(file);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          e.getMessage()
              + "; a measure set is a stats file in the layout of Accel-Sim's example_stats.yml",
          "measures_from");
    }
    return of(list, file.getFileName().toString());
  }

  /** The measures of a stats list already read; {@code source} names it in notes. */
  public static GetStatsMeasures of(GetStatsList list, String source) {
    List<Measure> measures = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    add(list.aggregate(), "collect_aggregate", source, seen, measures, notes);
    add(list.abs(), "collect_abs", source, seen, measures, notes);
    add(list.rates(), "collect_rates", source, seen, measures, notes);
    return new GetStatsMeasures(measures, notes);
  }

  private static void add(
      List<String> regexes,
      String section,
      String source,
      Map<String, Integer> seen,
      List<Measure> measures,
      List<String> notes) {
    for (String regex : regexes) {
      Matcher named = NAMED.matcher(regex);
      String name = named.matches() ? named.group(1) : null;
      if (name == null || UNESCAPED_META.matcher(name).find() || name.contains("\\s")) {
        notes.add(
            source
                + ": "
                + section
                + " \""
                + regex
                + "\" names no single statistic (no literal NAME before \\s*=): dropped");
        continue;
      }
      name = name.replaceAll("\\\\(.)", "$1");
      int occurrence = seen.merge(name, 1, Integer::sum);
      String key = occurrence == 1 ? name : name + "#" + occurrence;
      if (!named.group(2).startsWith("(")) {
        notes.add(
            source
                + ": "
                + key
                + " is dropped: its value is not the number printed after \"=\" (\""
                + regex
                + "\"), and Cascade's stats parser keeps only that number");
        continue;
      }
      Measure measure;
      try {
        measure =
            switch (section) {
              case "collect_aggregate" -> Measures.change(key);
              case "collect_abs" -> Measures.statistic(key, Measure.Aggregation.MEAN);
              default -> Measures.statistic(key, Measure.Aggregation.LAST);
            };
      } catch (IllegalArgumentException e) {
        notes.add(source + ": " + key + " is dropped: " + e.getMessage());
        continue;
      }
      measures.add(measure);
    }
  }

  /**
   * This set without the measures whose statistic is not among {@code statistics} (the keys a run's
   * kernels printed, as {@code GET /api/measures?run=} lists them), each dropped with a note.
   */
  public GetStatsMeasures keptBy(Collection<String> statistics) {
    List<Measure> kept = new ArrayList<>();
    List<String> dropped = new ArrayList<>(notes);
    for (Measure measure : measures) {
      String key =
          switch (measure.source()) {
            case Measure.Source.Statistic statistic -> statistic.key();
            case Measure.Source.Change change -> change.key();
            default -> null;
          };
      if (key == null || statistics.contains(key)) {
        kept.add(measure);
      } else {
        dropped.add(
            key
                + " is dropped: no kernel of the run printed it as a number Cascade's parser keeps");
      }
    }
    return new GetStatsMeasures(kept, dropped);
  }
}
