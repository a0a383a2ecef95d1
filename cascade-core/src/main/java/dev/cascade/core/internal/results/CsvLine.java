package dev.cascade.core.internal.results;

import java.util.ArrayList;
import java.util.List;

/** One RFC 4180 line split into cells: quoted cells may hold commas and doubled quotes. */
final class CsvLine {

  private CsvLine() {}

  static List<String> split(String line, String source, int number) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    if (quoted) {
      throw NcuCsv.invalid(source, number, "has a quote that is never closed");
    }
    cells.add(cell.toString());
    return cells;
  }
}
