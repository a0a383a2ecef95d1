package dev.cascade.core.internal.store;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Times as the database keeps them: ISO-8601 UTC text with all nine fraction digits, such as {@code
 * 2026-11-07T12:00:00.120000000Z}. {@link Instant#toString()} drops trailing zero digits, and then
 * {@code ...:00Z} sorts after {@code ...:00.5Z}; a fixed width keeps text order equal to time
 * order, so SQL can compare and sort times as strings.
 */
public final class SqlTimes {

  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

  private SqlTimes() {}

  /** The text for {@code instant}; null for null. */
  public static String text(Instant instant) {
    return instant == null ? null : FORMAT.format(instant);
  }

  /** The instant in {@code text}; null for null. */
  public static Instant instant(String text) {
    if (text == null) {
      return null;
    }
    Instant fixed = fixedWidth(text);
    return fixed != null ? fixed : Instant.parse(text);
  }

  /**
   * The instant in text of exactly the width {@link #text} writes, read digit by digit: a run of
   * 512 sims has 2,000 of them, and {@link Instant#parse} is the slowest part of reading it. Null
   * when the text has another shape (then {@link Instant#parse} reads or rejects it).
   */
  private static Instant fixedWidth(String text) {
    if (text.length() != 30
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || text.charAt(19) != '.'
        || text.charAt(29) != 'Z') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 7);
    int day = digits(text, 8, 10);
    int hour = digits(text, 11, 13);
    int minute = digits(text, 14, 16);
    int second = digits(text, 17, 19);
    int nanos = digits(text, 20, 29);
    if ((year | month | day | hour | minute | second | nanos) < 0
        || month < 1
        || month > 12
        || day < 1
        || day > YearMonth.of(year, month).lengthOfMonth()
        || hour > 23
        || minute > 59
        || second > 59) {
      return null;
    }
    long epochDay = LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
  }

  /** The decimal number in {@code text[from, to)}; -1 when a character is not a digit. */
  private static int digits(String text, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
