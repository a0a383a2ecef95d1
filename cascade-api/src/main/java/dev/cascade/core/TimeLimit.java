package dev.cascade.core;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sim's wall-time limit as people write it: {@code "30m"}, {@code "90s"}, {@code "2h"}, {@code
 * "1h30m"}, or a whole number of seconds ({@code "600"}). From 1 second to 30 days.
 */
public final class TimeLimit {

  /** The longest limit a run entry may set. */
  public static final Duration MAX = Duration.ofDays(30);

  private static final Pattern TEXT =
      Pattern.compile("(?:(\\d{1,7})d)?(?:(\\d{1,7})h)?(?:(\\d{1,7})m)?(?:(\\d{1,9})s)?");

  private TimeLimit() {}

  /**
   * The duration {@code text} names.
   *
   * @throws IllegalArgumentException naming the text when it is no such duration, or out of range
   */
  public static Duration parse(String text) {
    String trimmed = text == null ? "" : text.strip();
    if (trimmed.chars().allMatch(Character::isDigit) && !trimmed.isEmpty()) {
      return requireValid(Duration.ofSeconds(parseLong(trimmed, text)));
    }
    Matcher matcher = TEXT.matcher(trimmed);
    if (trimmed.isEmpty() || !matcher.matches()) {
      throw new IllegalArgumentException(
          "must be a duration such as \"30m\", \"90s\", \"2h\", \"1h30m\" or a number of seconds;"
              + " got \""
              + text
              + "\"");
    }
    Duration limit =
        Duration.ofDays(part(matcher.group(1), text))
            .plusHours(part(matcher.group(2), text))
            .plusMinutes(part(matcher.group(3), text))
            .plusSeconds(part(matcher.group(4), text));
    return requireValid(limit);
  }

  /** {@code limit} when it is from 1 second to {@link #MAX}, in whole seconds. */
  public static Duration requireValid(Duration limit) {
    if (limit.compareTo(Duration.ofSeconds(1)) < 0 || limit.compareTo(MAX) > 0) {
      throw new IllegalArgumentException("must be from 1 second to 30 days; got " + format(limit));
    }
    if (limit.getNano() != 0) {
      throw new IllegalArgumentException("must be whole seconds; got " + limit);
    }
    return limit;
  }

  /**
   * The limit as {@link #parse} reads it: {@code "1h30m"}, {@code "90s"} becomes {@code "1m30s"}.
   */
  public static String format(Duration limit) {
    if (limit.isNegative() || limit.isZero()) {
      return limit.toSeconds() + "s";
    }
    StringBuilder text = new StringBuilder();
    long seconds = limit.toSeconds();
    long[] units = {86_400, 3_600, 60, 1};
    String[] names = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (seconds >= units[i]) {
        text.append(seconds / units[i]).append(names[i]);
        seconds %= units[i];
      }
    }
    return text.isEmpty() ? "0s" : text.toString();
  }

  private static long part(String digits, String text) {
    return digits == null ? 0 : parseLong(digits, text);
  }

  private static long parseLong(String digits, String text) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is too long a time; got \"" + text + "\"", e);
    }
  }
}
