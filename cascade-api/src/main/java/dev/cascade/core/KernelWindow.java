package dev.cascade.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The kernels a run entry simulates, by position in the trace's {@code kernelslist.g} counting
 * kernel lines only, from 1: {@code "1-5,9"} is kernels 1 to 5 and 9. The sims run a {@code
 * kernelslist.g} holding those kernels, each with the memcpy lines that come before it in the
 * trace; results keep the trace's positions ({@link #positions}), never renumbered.
 *
 * @param text the window as written, for example {@code "2-3"}
 * @param positions the kernels it names, ascending, each once, from 1
 */
public record KernelWindow(String text, List<Integer> positions) {

  public KernelWindow {
    Objects.requireNonNull(text, "text");
    positions = List.copyOf(positions);
  }

  /**
   * Reads {@code "1-5,9"}: comma-separated positions and ranges {@code a-b} with {@code a <= b},
   * each from 1.
   *
   * @throws IllegalArgumentException naming the text and what is wrong with it
   */
  public static KernelWindow parse(String text) {
    Objects.requireNonNull(text, "text");
    TreeSet<Integer> positions = new TreeSet<>();
    String stripped = text.strip();
    if (stripped.isEmpty()) {
      throw invalid(text, "it names no kernel");
    }
    for (String part : stripped.split(",", -1)) {
      String item = part.strip();
      int dash = item.indexOf('-');
      int from = position(text, dash < 0 ? item : item.substring(0, dash));
      int to = dash < 0 ? from : position(text, item.substring(dash + 1));
      if (to < from) {
        throw invalid(text, "the range \"" + item + "\" runs backwards");
      }
      for (int position = from; position <= to; position++) {
        positions.add(position);
      }
    }
    return new KernelWindow(stripped, new ArrayList<>(positions));
  }

  /** The highest position it names. */
  public int last() {
    return positions.getLast();
  }

  private static int position(String text, String item) {
    String digits = item.strip();
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 9) {
      throw invalid(text, "\"" + item.strip() + "\" is not a kernel position");
    }
    int position = Integer.parseInt(digits);
    if (position < 1) {
      throw invalid(text, "kernel positions count from 1");
    }
    return position;
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException(
        "kernels \""
            + text
            + "\" is not a kernel window: "
            + why
            + "; write positions in kernelslist.g from 1 and ranges, such as \"1-5,9\"");
  }
}
