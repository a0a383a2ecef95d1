package dev.cascade.accelsim.stats;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * Numbers as Python reads and prints them ({@code float(text)} and {@code str(x)}), so that the
 * {@code get_stats.py} layout comes out with the script's own digits: {@code 72794.0}, {@code
 * 1e+16}, {@code 1.5e-05}, {@code nan}.
 */
final class PythonFloats {

  private static final Pattern DECIMAL =
      Pattern.compile(
          "[+-]?(\\d(_?\\d)*(\\.(\\d(_?\\d)*)?)?|\\.\\d(_?\\d)*)([eE][+-]?\\d(_?\\d)*)?");

  private PythonFloats() {}

  /** {@code float(text)}; empty where Python would raise {@code ValueError}. */
  static OptionalDouble parse(String text) {
    String value = text.strip();
    String unsigned = value.startsWith("-") || value.startsWith("+") ? value.substring(1) : value;
    boolean negative = value.startsWith("-");
    switch (unsigned.toLowerCase(Locale.ROOT)) {
      case "nan":
        return OptionalDouble.of(Double.NaN);
      case "inf", "infinity":
        return OptionalDouble.of(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
      default:
        break;
    }
    if (!DECIMAL.matcher(value).matches()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Double.parseDouble(value.replace("_", "")));
  }

  /**
   * {@code str(x)}: the shortest digits that read back as {@code x}, in fixed notation from 1e-4 up
   * to 1e16 (always with a fraction, {@code 3.0}), else as {@code 1.5e-05}.
   */
  static String repr(double x) {
    if (Double.isNaN(x)) {
      return "nan";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "inf" : "-inf";
    }
    if (x == 0) {
      return (1 / x < 0) ? "-0.0" : "0.0";
    }
    // Double.toString gives the shortest digits that read back (JDK 19 and later).
    BigDecimal decimal = new BigDecimal(Double.toString(x)).stripTrailingZeros();
    String digits = decimal.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - decimal.scale(); // of the first digit
    String sign = x < 0 ? "-" : "";
    if (exponent >= -4 && exponent < 16) {
      String plain = decimal.abs().toPlainString();
      return sign + (plain.indexOf('.') < 0 ? plain + ".0" : plain);
    }
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    String power = String.format(Locale.ROOT, "%02d", Math.abs(exponent));
    return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + power;
  }
}
