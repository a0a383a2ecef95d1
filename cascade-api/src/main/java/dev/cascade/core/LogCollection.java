package dev.cascade.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one collection of old logs did ({@code cascade gc}, {@code POST /api/gc}, or the retention
 * setting): the logs of finished runs created before {@code before} dropped, their results kept,
 * and the kernel-window folders of finished sims removed.
 *
 * @param before runs created before this instant had their logs dropped
 * @param runs runs whose logs were dropped now
 * @param sims sims whose logs were dropped now
 * @param logBytes the dropped logs' bytes as the sims sent them
 * @param logStoredBytes the dropped logs' bytes as they were stored
 * @param folders kernel-window folders and sim output files removed
 */
public record LogCollection(
    Instant before, int runs, int sims, long logBytes, long logStoredBytes, int folders) {

  private static final Pattern AGE =
      Pattern.compile("(?:(\\d{1,6})d)?(?:(\\d{1,7})h)?(?:(\\d{1,9})m)?");

  public LogCollection {
    Objects.requireNonNull(before, "before");
  }

  /**
   * A retention limit as people write it: {@code "30d"}, {@code "12h"}, {@code "1d12h"}, {@code
   * "90m"}, or {@code "0"} (every finished run).
   *
   * @throws IllegalArgumentException naming the text when it is no such age
   */
  public static Duration parseAge(String text) {
    String trimmed = text == null ? "" : text.strip();
    if (trimmed.equals("0")) {
      return Duration.ZERO;
    }
    Matcher matcher = AGE.matcher(trimmed);
    if (trimmed.isEmpty() || !matcher.matches()) {
      throw new IllegalArgumentException(
          "must be an age such as \"30d\", \"12h\", \"1d12h\", \"90m\" or \"0\"; got \""
              + text
              + "\"");
    }
    return Duration.ofDays(part(matcher.group(1)))
        .plusHours(part(matcher.group(2)))
        .plusMinutes(part(matcher.group(3)));
  }

  private static long part(String digits) {
    return digits == null ? 0 : Long.parseLong(digits);
  }
}
