package dev.cascade.accelsim.stats;

import java.nio.charset.StandardCharsets;

/**
 * Reads the decimal numbers of statistic lines straight from the bytes, and keeps the last one in
 * its fields instead of returning an object, so scanning allocates nothing (one scanner per
 * parser).
 */
final class NumberScanner {

  /** 10^i for i in 0..22: every one is exact as a double. */
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double power = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = power;
      power *= 10;
    }
  }

  // The number last scanned: a long, or a double when it had a fraction, an exponent or too many
  // digits; and where it ended.
  boolean isDecimal;
  long longValue;
  double doubleValue;
  int end;

  /**
   * Scans a decimal number at {@code b[start]}: an optional sign, digits with an optional fraction
   * and exponent. Sets the fields and returns true, or returns false when there is none (or it is
   * not finite, such as {@code -nan}).
   */
  boolean scan(byte[] b, int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (b[i] == '-' || b[i] == '+')) {
      negative = b[i] == '-';
      i++;
    }
    long mantissa = 0;
    int significant = 0;
    int digits = 0;
    for (; i < end; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        break;
      }
      digits++;
      if (mantissa != 0 || d != 0) {
        if (++significant <= 18) {
          mantissa = mantissa * 10 + d;
        }
      }
    }
    boolean decimal = false;
    int fraction = 0;
    if (i < end && b[i] == '.') {
      decimal = true;
      for (i++; i < end; i++) {
        int d = b[i] - '0';
        if (d < 0 || d > 9) {
          break;
        }
        digits++;
        fraction++;
        if (mantissa != 0 || d != 0) {
          if (++significant <= 18) {
            mantissa = mantissa * 10 + d;
          }
        }
      }
    }
    if (digits == 0) {
      return false;
    }
    boolean exponent = false;
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      int j = i + 1;
      if (j < end && (b[j] == '-' || b[j] == '+')) {
        j++;
      }
      if (j < end && b[j] >= '0' && b[j] <= '9') {
        exponent = true;
        decimal = true;
        while (j < end && b[j] >= '0' && b[j] <= '9') {
          j++;
        }
        i = j;
      }
    }
    this.end = i;
    if (!decimal && significant <= 18) {
      isDecimal = false;
      longValue = negative ? -mantissa : mantissa;
      return true;
    }
    isDecimal = true;
    if (!exponent && significant <= 15 && fraction < POWERS_OF_TEN.length) {
      // Both operands are exact doubles, so the quotient is correctly rounded.
      double value = mantissa / POWERS_OF_TEN[fraction];
      doubleValue = negative ? -value : value;
      return true;
    }
    try {
      doubleValue = Double.parseDouble(new String(b, start, i - start, StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      return false;
    }
    return Double.isFinite(doubleValue);
  }

  /** The number last scanned as a count, or -1 when it is negative. */
  long wholeNumber() {
    long value = isDecimal ? (long) doubleValue : longValue;
    return value < 0 ? -1 : value;
  }

  /**
   * True when what follows a number is only a unit: nothing, or a blank, {@code %}, {@code !} or a
   * letter, and no further digit before an optional trailing {@code {...}} histogram. So {@code
   * 12.5%}, {@code 3.7 GB/Sec}, {@code 9118 (cycle/sec)} and {@code 124150x} count, while {@code
   * 750/32 = 23.4} and {@code 0 days, 0 hrs, ...} do not.
   */
  static boolean unitOnly(byte[] b, int start, int end) {
    if (start == end) {
      return true;
    }
    byte c = b[start];
    if (!(c == ' '
        || c == '\t'
        || c == '%'
        || c == '!'
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z'))) {
      return false;
    }
    for (int i = start; i < end; i++) {
      c = b[i];
      if (c == '{') {
        return true;
      }
      if (c >= '0' && c <= '9') {
        return false;
      }
    }
    return true;
  }

  /** The unsigned decimal at {@code b[start]}, 0 when there is none. */
  static long digits(byte[] b, int start, int end) {
    long value = 0;
    for (int i = start; i < end && i - start < 18; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        break;
      }
      value = value * 10 + d;
    }
    return value;
  }
}
