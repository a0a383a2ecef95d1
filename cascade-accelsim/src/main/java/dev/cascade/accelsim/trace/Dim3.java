package dev.cascade.accelsim.trace;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CUDA grid or thread-block shape, as a trace header writes it: {@code (x,y,z)}.
 *
 * @param x the extent along x, at least 0
 * @param y the extent along y, at least 0
 * @param z the extent along z, at least 0
 */
public record Dim3(int x, int y, int z) {

  private static final Pattern TEXT =
      Pattern.compile("\\(\\s*(\\d{1,10})\\s*,\\s*(\\d{1,10})\\s*,\\s*(\\d{1,10})\\s*\\)");

  public Dim3 {
    if (x < 0 || y < 0 || z < 0) {
      throw new IllegalArgumentException(
          "dimensions must not be negative: (" + x + "," + y + "," + z + ")");
    }
  }

  /**
   * Parses {@code (x,y,z)}, spaces allowed around the numbers.
   *
   * @throws IllegalArgumentException when {@code text} is not of that form
   */
  public static Dim3 parse(String text) {
    Matcher m = TEXT.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not of the form (x,y,z)");
    }
    try {
      return new Dim3(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' has a dimension above 2147483647", e);
    }
  }

  /**
   * {@code x * y * z}: thread blocks in a grid, or threads in a block; {@link Long#MAX_VALUE} if
   * that overflows (only nonsense dims do).
   */
  public long count() {
    try {
      return Math.multiplyExact((long) x * y, (long) z);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  /** The header form, {@code (x,y,z)}. */
  @Override
  public String toString() {
    return "(" + x + "," + y + "," + z + ")";
  }
}
