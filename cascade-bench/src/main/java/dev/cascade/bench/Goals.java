package dev.cascade.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The goals one benchmark measured, kept in {@code <bench.work>/goals/<bench>.tsv} so that the
 * summary after every benchmark of a {@code -Pbench} run ({@link GoalsSummary}) can print them all.
 * Each benchmark runs in a JVM of its own; a file is the simplest way to hand results on.
 */
final class Goals {

  /** One measured row: what was seen (with its baseline) and whether the goal is met. */
  record Measured(GoalRow row, String seen, boolean met) {
    Measured {
      if (seen.contains("\t") || seen.contains("\n")) {
        throw new IllegalArgumentException("a measurement is one line without tabs: " + seen);
      }
    }
  }

  private final String bench;
  private final List<Measured> measured = new ArrayList<>();

  Goals(String bench) {
    this.bench = bench;
  }

  /** Records a row; the latest record of a row counts. */
  void record(GoalRow row, String seen, boolean met) {
    measured.removeIf(m -> m.row() == row);
    measured.add(new Measured(row, seen, met));
  }

  /** Writes the rows recorded so far (call again after more rows: the file is replaced). */
  void save(Path work) {
    Path folder = work.resolve("goals");
    StringBuilder text = new StringBuilder();
    for (Measured m : measured) {
      text.append(m.row().name()).append('\t').append(m.met()).append('\t').append(m.seen());
      text.append('\n');
    }
    try {
      Files.createDirectories(folder);
      Files.writeString(folder.resolve(bench + ".tsv"), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Forgets the rows of earlier runs. */
  static void reset(Path work) {
    Path folder = work.resolve("goals");
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (var files = Files.list(folder)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every row recorded in {@code <work>/goals/}, the latest file's row winning a tie. */
  static Map<GoalRow, Measured> readAll(Path work) {
    Map<GoalRow, Measured> rows = new EnumMap<>(GoalRow.class);
    Path folder = work.resolve("goals");
    if (!Files.isDirectory(folder)) {
      return rows;
    }
    try (var files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".tsv")).sorted().toList()) {
        for (String line : Files.readAllLines(file)) {
          String[] parts = line.split("\t", 3);
          if (parts.length == 3) {
            GoalRow row = GoalRow.valueOf(parts[0]);
            rows.put(row, new Measured(row, parts[2], Boolean.parseBoolean(parts[1])));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}
