package dev.cascade.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain text table: a header row and rows, columns two spaces apart, each as wide as its widest
 * cell, numbers right-aligned. The last column is not padded, so lines carry no trailing blanks.
 */
final class TextTable {

  private final String[] headers;
  private final boolean[] rightAligned;
  private final List<String[]> rows = new ArrayList<>();
  private String indent = "";
  private boolean header = true;

  /** Columns by header; a header starting with {@code >} is right-aligned (the mark is dropped). */
  TextTable(String... headers) {
    this.headers = new String[headers.length];
    this.rightAligned = new boolean[headers.length];
    for (int i = 0; i < headers.length; i++) {
      rightAligned[i] = headers[i].startsWith(">");
      this.headers[i] = rightAligned[i] ? headers[i].substring(1) : headers[i];
    }
  }

  /** Every line starts with {@code indent}. */
  TextTable indent(String indent) {
    this.indent = indent;
    return this;
  }

  /** Prints the rows only, as a list of facts. */
  TextTable withoutHeader() {
    this.header = false;
    return this;
  }

  /** Adds a row; null cells print as {@code -}. */
  TextTable row(Object... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException(
          "a row of this table has " + headers.length + " cells; got " + cells.length);
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "-" : cells[i].toString();
    }
    rows.add(row);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void print(PrintWriter out) {
    int[] widths = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      widths[i] = header ? headers[i].length() : 0;
      for (String[] row : rows) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    if (header) {
      printRow(out, headers, widths);
    }
    for (String[] row : rows) {
      printRow(out, row, widths);
    }
  }

  private void printRow(PrintWriter out, String[] cells, int[] widths) {
    StringBuilder line = new StringBuilder(indent);
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        line.append("  ");
      }
      int pad = widths[i] - cells[i].length();
      boolean last = i == cells.length - 1;
      if (rightAligned[i]) {
        line.append(" ".repeat(pad)).append(cells[i]);
      } else {
        line.append(cells[i]);
        if (!last) {
          line.append(" ".repeat(pad));
        }
      }
    }
    out.println(strip(line));
  }

  private static String strip(StringBuilder line) {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == ' ') {
      end--;
    }
    return line.substring(0, end);
  }

  @Override
  public String toString() {
    return "TextTable" + Arrays.toString(headers) + " with " + rows.size() + " rows";
  }
}
