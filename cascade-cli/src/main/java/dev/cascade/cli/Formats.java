package dev.cascade.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** How the client commands write ages, sizes, progress bars and numbers for people. */
final class Formats {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Formats() {}

  /**
   * JSON as {@code --json} prints it: indented; a tree as the server sent it, or a map of a
   * command's own facts (strings, numbers, lists and maps of them).
   */
  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "cannot write a " + value.getClass().getSimpleName() + " as JSON: " + e.getMessage(), e);
    }
  }

  /** A duration the short way: {@code 0.4s}, {@code 12s}, {@code 5m}, {@code 3h}, {@code 4d}. */
  static String duration(Duration duration) {
    long millis = Math.max(0, duration.toMillis());
    if (millis < 10_000) {
      return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
    }
    long seconds = millis / 1000;
    if (seconds < 120) {
      return seconds + "s";
    }
    if (seconds < 120 * 60) {
      return seconds / 60 + "m";
    }
    if (seconds < 48 * 3600) {
      return seconds / 3600 + "h";
    }
    return seconds / 86_400 + "d";
  }

  /** Seconds as {@link #duration}; {@code -} for null. */
  static String seconds(Double seconds) {
    return seconds == null ? "-" : duration(Duration.ofMillis(Math.round(seconds * 1000)));
  }

  /** How long ago an ISO-8601 time was at {@code now}; {@code -} when it is null or unreadable. */
  static String ago(String isoTime, Instant now) {
    Instant then = instant(isoTime);
    return then == null ? "-" : duration(Duration.between(then, now));
  }

  /** An ISO-8601 time as the API writes it; null when null or unreadable. */
  static Instant instant(String isoTime) {
    if (isoTime == null || isoTime.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(isoTime);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** A text field of {@code node}; null when absent or JSON null. */
  static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isNull() || value.isMissingNode() ? null : value.asText();
  }

  /** A number field of {@code node}; null when absent or JSON null. */
  static Double number(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isNumber() ? value.asDouble() : null;
  }

  /**
   * {@code text} cut to at most {@code max} characters, keeping its start and end around an
   * ellipsis (long C++ kernel names differ at both ends); null stays null.
   */
  static String shorten(String text, int max) {
    if (text == null || text.length() <= max) {
      return text;
    }
    int head = (max - 1) * 2 / 3;
    int tail = max - 1 - head;
    return text.substring(0, head) + "…" + text.substring(text.length() - tail);
  }

  /** Bytes as {@code 812 B}, {@code 17.9 KiB}, {@code 1.2 MiB}, {@code 3.0 GiB}. */
  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** A progress bar of {@code width} cells and the count: {@code [######....] 3/5}. */
  static String bar(int done, int total, int width) {
    int filled = total <= 0 ? 0 : (int) Math.min(width, (long) done * width / total);
    return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + done + "/" + total;
  }

  /**
   * A number with {@code decimals} places, or without any when it is whole and {@code decimals} is
   * 0: {@code 1005}, {@code 1005.5}, {@code 3.982}.
   */
  static String decimal(double value, int decimals) {
    if (decimals == 0) {
      return value == Math.rint(value)
          ? String.format(Locale.ROOT, "%.0f", value)
          : String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  /**
   * A spread across replicas ({@code {"n", "mean", "stdev", "min", "max"}}) as {@code mean ± stdev
   * [min..max]}; {@code mean (all n agree)} when every replica gave exactly the same value; the
   * mean alone for one replica; {@code -} for none.
   */
  static String spread(JsonNode spread, int decimals) {
    int n = spread.path("n").asInt(0);
    if (n == 0) {
      return "-";
    }
    String mean = decimal(spread.path("mean").asDouble(), decimals);
    if (n == 1) {
      return mean;
    }
    if (spread.path("min").asDouble() == spread.path("max").asDouble()) {
      return mean + " (all " + n + " agree)";
    }
    int stdevDecimals = decimals == 0 ? 1 : decimals;
    return mean
        + " ± "
        + decimal(spread.path("stdev").asDouble(), stdevDecimals)
        + " ["
        + decimal(spread.path("min").asDouble(), decimals)
        + ".."
        + decimal(spread.path("max").asDouble(), decimals)
        + "]";
  }
}
