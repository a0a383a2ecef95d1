package dev.cascade.core.internal.results;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads what Nsight Compute measured, from {@code ncu --csv --page raw}: a header row of column
 * names, a units row ({@code ""} for the non-metric columns, {@code cycle}, {@code nsecond} ...),
 * then one row per kernel launch in launch order. Lines ncu prints around it ({@code ==PROF==}) are
 * skipped. Only {@code Kernel Name}, {@code gpc__cycles_elapsed.max} (the cycles Accel-Sim's
 * correlation compares with) and {@code gpu__time_duration.sum} are read; one of the two metrics
 * may be missing. Errors name {@code source:line}.
 */
public final class NcuCsv {

  static final String KERNEL = "Kernel Name";
  static final String CYCLES = "gpc__cycles_elapsed.max";
  static final String TIME = "gpu__time_duration.sum";

  private NcuCsv() {}

  /**
   * The kernels measured in {@code text}, in launch order.
   *
   * @throws CascadeException {@code invalid} naming {@code source:line} when the CSV is not in that
   *     layout, a number does not parse, or a unit is unknown
   */
  public static List<MeasuredKernel> parse(String source, String text) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(text, "text");
    String[] lines = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
    int at = 0;
    while (at < lines.length && (lines[at].isBlank() || lines[at].startsWith("=="))) {
      at++;
    }
    if (at == lines.length) {
      throw invalid(source, 1, "is empty; export it with ncu --csv --page raw");
    }
    List<String> header = CsvLine.split(lines[at], source, at + 1);
    int kernel = header.indexOf(KERNEL);
    int cycles = header.indexOf(CYCLES);
    int time = header.indexOf(TIME);
    if (kernel < 0) {
      throw invalid(
          source, at + 1, "has no \"" + KERNEL + "\" column: is it ncu --csv --page raw output?");
    }
    if (cycles < 0 && time < 0) {
      throw invalid(
          source,
          at + 1,
          "has neither "
              + CYCLES
              + " nor "
              + TIME
              + "; profile with ncu --csv --page raw --metrics "
              + CYCLES
              + ","
              + TIME);
    }
    at++;
    double cycleScale = 1;
    double timeScale = 1e-3; // ns, ncu's default unit for durations
    if (at < lines.length && !lines[at].isBlank()) {
      List<String> units = CsvLine.split(lines[at], source, at + 1);
      if (units.size() > kernel && units.get(kernel).isEmpty()) {
        if (cycles >= 0) {
          cycleScale = cycleScale(cell(units, cycles), source, at + 1);
        }
        if (time >= 0) {
          timeScale = microsecondScale(cell(units, time), source, at + 1);
        }
        at++;
      }
    }
    List<MeasuredKernel> kernels = new ArrayList<>();
    for (; at < lines.length; at++) {
      if (lines[at].isBlank() || lines[at].startsWith("==")) {
        continue;
      }
      List<String> row = CsvLine.split(lines[at], source, at + 1);
      if (row.size() != header.size()) {
        throw invalid(
            source, at + 1, "has " + row.size() + " cells where the header has " + header.size());
      }
      kernels.add(
          new MeasuredKernel(
              kernels.size(),
              row.get(kernel),
              cycles < 0 ? null : number(row.get(cycles), CYCLES, source, at + 1) * cycleScale,
              time < 0 ? null : number(row.get(time), TIME, source, at + 1) * timeScale));
    }
    if (kernels.isEmpty()) {
      throw invalid(source, at, "has a header but no kernel rows");
    }
    return List.copyOf(kernels);
  }

  private static String cell(List<String> row, int index) {
    return index < row.size() ? row.get(index).trim() : "";
  }

  private static double cycleScale(String unit, String source, int line) {
    return switch (unit) {
      case "", "cycle", "cycles" -> 1;
      case "Kcycle" -> 1e3;
      case "Mcycle" -> 1e6;
      case "Gcycle" -> 1e9;
      default ->
          throw invalid(
              source, line, "gives " + CYCLES + " in \"" + unit + "\", not a unit of cycles");
    };
  }

  private static double microsecondScale(String unit, String source, int line) {
    return switch (unit) {
      case "", "nsecond", "ns" -> 1e-3;
      case "usecond", "us" -> 1;
      case "msecond", "ms" -> 1e3;
      case "second", "s" -> 1e6;
      default ->
          throw invalid(
              source,
              line,
              "gives "
                  + TIME
                  + " in \""
                  + unit
                  + "\"; expected nsecond, usecond, msecond or second");
    };
  }

  /** A measured number; ncu may group thousands with commas ({@code "34,779"}). */
  private static double number(String cell, String column, String source, int line) {
    String plain = cell.trim().replace(",", "");
    try {
      double value = Double.parseDouble(plain);
      if (Double.isFinite(value) && value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw invalid(
        source,
        line,
        column
            + " \""
            + cell
            + "\" is not a number of 0 or more; ncu writes n/a for a metric it"
            + " could not collect: profile that kernel again");
  }

  static CascadeException invalid(String source, int line, String why) {
    return new CascadeException(
        ErrorCode.INVALID, source + ":" + line + ": the Nsight Compute CSV " + why, "hardware");
  }
}
