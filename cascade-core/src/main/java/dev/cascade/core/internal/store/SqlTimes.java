package dev.cascade.core.internal.store;

import java.time.Instant;
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
    return text == null ? null : Instant.parse(text);
  }
}
