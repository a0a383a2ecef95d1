package dev.cascade.core;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

/** How Cascade's CSV files write their cells: RFC 4180 rows, numbers as pandas reads them. */
final class CsvCells {

  private CsvCells() {}

  /** Plain decimal text: no exponent, no trailing {@code .0}; empty when not a finite number. */
  static String number(double value) {
    if (!Double.isFinite(value)) {
      return "";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return new BigDecimal(Double.toString(value)).toPlainString();
  }

  /** One row, cells quoted where they must be, ended by CRLF. */
  static void row(Appendable out, List<String> cells) throws IOException {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(quote(cells.get(i)));
    }
    out.append("\r\n");
  }

  private static String quote(String cell) {
    if (cell.indexOf(',') < 0
        && cell.indexOf('"') < 0
        && cell.indexOf('\n') < 0
        && cell.indexOf('\r') < 0) {
      return cell;
    }
    return '"' + cell.replace("\"", "\"\"") + '"';
  }
}
