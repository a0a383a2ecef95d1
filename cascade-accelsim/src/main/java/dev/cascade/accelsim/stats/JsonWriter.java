package dev.cascade.accelsim.stats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A small streaming JSON writer made for {@link StatsJson}'s shape: thousands of numbers per kernel
 * under the same keys, so each key is escaped once and numbers go straight into a char buffer that
 * goes out 64 K chars at a time. Errors of the underlying writer come out of {@link #flush} as
 * {@link IOException} and out of every other method as {@link UncheckedIOException}. Not
 * thread-safe.
 */
final class JsonWriter {
  private static final int BUFFER_CHARS = 1 << 16;
  private static final int MAX_CACHED_NAMES = 1 << 16;
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final double[] POWERS_OF_TEN = {
    1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  private final Writer out;
  private final char[] buffer = new char[BUFFER_CHARS];
  private int length;
  private final boolean[] first = new boolean[64];
  private int depth;
  private boolean afterName;
  private final Map<String, char[]> names = new IdentityHashMap<>();

  JsonWriter(Writer out) {
    this.out = out;
  }

  void beginObject() {
    beforeValue();
    begin('{');
  }

  void endObject() {
    end('}');
  }

  void beginArray() {
    beforeValue();
    begin('[');
  }

  void endArray() {
    end(']');
  }

  private void begin(char bracket) {
    ensure(1);
    buffer[length++] = bracket;
    first[++depth] = true;
  }

  private void end(char bracket) {
    ensure(1);
    buffer[length++] = bracket;
    depth--;
  }

  void name(String name) {
    beforeName();
    string(name);
    ensure(1);
    buffer[length++] = ':';
    afterName = true;
  }

  /** A name and its string value (or null) in one call. */
  void field(String name, String value) {
    name(name);
    value(value);
  }

  /** A name and its integer value in one call. */
  void field(String name, long value) {
    name(name);
    value(value);
  }

  /**
   * Like {@link #name} for names seen again and again: remembered by identity (the parser hands out
   * one String per key), escaped once.
   */
  void cachedName(String name) {
    char[] quoted = names.get(name);
    if (quoted == null) {
      quoted = ('"' + escape(name) + "\":").toCharArray();
      if (quoted.length > buffer.length / 2) {
        name(name);
        return;
      }
      if (names.size() < MAX_CACHED_NAMES) {
        names.put(name, quoted);
      }
    }
    beforeName();
    ensure(quoted.length);
    System.arraycopy(quoted, 0, buffer, length, quoted.length);
    length += quoted.length;
    afterName = true;
  }

  void value(String value) {
    beforeValue();
    if (value == null) {
      raw("null");
    } else {
      string(value);
    }
  }

  void value(boolean value) {
    beforeValue();
    raw(value ? "true" : "false");
  }

  void value(long value) {
    beforeValue();
    if (value == Long.MIN_VALUE) {
      raw(Long.toString(value));
      return;
    }
    ensure(20);
    if (value < 0) {
      buffer[length++] = '-';
      value = -value;
    }
    int digits = 1;
    for (long rest = value / 10; rest != 0; rest /= 10) {
      digits++;
    }
    for (int i = length + digits - 1; i >= length; i--) {
      buffer[i] = (char) ('0' + value % 10);
      value /= 10;
    }
    length += digits;
  }

  /**
   * A double in its shortest plain form when it has at most 15 significant digits and 15 decimals
   * (every value of a simulator log does), else as {@link Double#toString}; {@code null} when not
   * finite (JSON has no NaN).
   */
  void value(double value) {
    if (!Double.isFinite(value)) {
      beforeValue();
      raw("null");
      return;
    }
    double magnitude = Math.abs(value);
    if (magnitude < 1e15) {
      for (int scale = 1; scale < POWERS_OF_TEN.length; scale++) {
        long unscaled = Math.round(magnitude * POWERS_OF_TEN[scale]);
        if (unscaled / POWERS_OF_TEN[scale] == magnitude && unscaled < 1e15) {
          decimal(value < 0, unscaled, scale);
          return;
        }
      }
    }
    beforeValue();
    raw(Double.toString(value));
  }

  /** {@code unscaled × 10^-scale}, with at least one decimal and no trailing zero beyond it. */
  private void decimal(boolean negative, long unscaled, int scale) {
    while (scale > 1 && unscaled % 10 == 0) {
      unscaled /= 10;
      scale--;
    }
    beforeValue();
    ensure(40);
    if (negative) {
      buffer[length++] = '-';
    }
    int digits = 1;
    for (long rest = unscaled / 10; rest != 0; rest /= 10) {
      digits++;
    }
    int width = Math.max(digits, scale + 1) + 1; // with the point and a leading 0 if needed
    int point = length + width - 1 - scale;
    for (int i = length + width - 1; i >= length; i--) {
      if (i == point) {
        buffer[i] = '.';
      } else {
        buffer[i] = (char) ('0' + unscaled % 10);
        unscaled /= 10;
      }
    }
    length += width;
  }

  void newline() {
    ensure(1);
    buffer[length++] = '\n';
  }

  void flush() throws IOException {
    out.write(buffer, 0, length);
    length = 0;
    out.flush(); // each piece goes out at once, so a broken output shows early
  }

  private void beforeName() {
    if (first[depth]) {
      first[depth] = false;
    } else {
      ensure(1);
      buffer[length++] = ',';
    }
  }

  private void beforeValue() {
    if (afterName) {
      afterName = false;
    } else if (depth > 0) {
      beforeName();
    }
  }

  private void raw(String text) {
    if (text.length() > buffer.length / 2) { // a huge name: straight through
      flushUnchecked();
      try {
        out.write(text);
      } catch (IOException e) {
        throw new UncheckedIOException(e.getMessage(), e);
      }
      return;
    }
    ensure(text.length());
    text.getChars(0, text.length(), buffer, length);
    length += text.length();
  }

  private void string(String text) {
    raw('"' + escape(text) + '"');
  }

  private static String escape(String text) {
    StringBuilder escaped = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String replacement =
          switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> c < 0x20 || c == 0x2028 || c == 0x2029 ? unicode(c) : null;
          };
      if (replacement != null && escaped == null) {
        escaped = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (escaped != null) {
        if (replacement == null) {
          escaped.append(c);
        } else {
          escaped.append(replacement);
        }
      }
    }
    return escaped == null ? text : escaped.toString();
  }

  /** A backslash, {@code u} and all four hex digits (so U+2028 does not come out as U+0028). */
  private static String unicode(char c) {
    return "\\u" + HEX[c >> 12 & 0xF] + HEX[c >> 8 & 0xF] + HEX[c >> 4 & 0xF] + HEX[c & 0xF];
  }

  /** Room for {@code chars} more chars (at most half the buffer): flushes when too full. */
  private void ensure(int chars) {
    if (length + chars > buffer.length) {
      flushUnchecked();
    }
  }

  private void flushUnchecked() {
    try {
      flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }
}
