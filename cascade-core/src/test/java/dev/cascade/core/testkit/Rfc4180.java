package dev.cascade.core.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * A strict RFC 4180 reader for tests: fields separated by commas, records by CRLF, a field in
 * double quotes may hold commas, quotes (doubled) and line breaks. Anything else (a bare LF, a
 * quote inside an unquoted field, text after a closing quote, rows of different widths) fails.
 */
public final class Rfc4180 {

  private Rfc4180() {}

  /** The records of {@code text}, which must end with CRLF. */
  public static List<List<String>> parse(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"' && field.isEmpty()) {
        i++;
        while (true) {
          if (i >= text.length()) {
            throw new IllegalArgumentException("unclosed quote at " + i);
          }
          char q = text.charAt(i);
          if (q == '"') {
            if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
              field.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field.append(q);
          i++;
        }
        if (i < text.length() && text.charAt(i) != ',' && text.charAt(i) != '\r') {
          throw new IllegalArgumentException("text after a closing quote at " + i);
        }
        continue;
      }
      if (c == ',') {
        record.add(field.toString());
        field.setLength(0);
        i++;
      } else if (c == '\r') {
        if (i + 1 >= text.length() || text.charAt(i + 1) != '\n') {
          throw new IllegalArgumentException("a CR without LF at " + i);
        }
        record.add(field.toString());
        field.setLength(0);
        if (!records.isEmpty() && records.getFirst().size() != record.size()) {
          throw new IllegalArgumentException(
              "record "
                  + records.size()
                  + " has "
                  + record.size()
                  + " fields, the header "
                  + records.getFirst().size());
        }
        records.add(record);
        record = new ArrayList<>();
        i += 2;
      } else if (c == '\n' || c == '"') {
        throw new IllegalArgumentException("a bare " + (c == '"' ? "quote" : "LF") + " at " + i);
      } else {
        field.append(c);
        i++;
      }
    }
    if (!record.isEmpty() || !field.isEmpty()) {
      throw new IllegalArgumentException("the last record does not end with CRLF");
    }
    return records;
  }
}
