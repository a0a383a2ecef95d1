package dev.cascade.core.internal.output;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a sim's output into lines as it is fed, split anywhere, and keeps the newest complete
 * lines since the last {@link #drain()}: at most {@link #MAX_LINES} of them and {@link #MAX_BYTES}
 * bytes, each line cut at {@link #MAX_BYTES}. This is what a {@code log} event carries; the whole
 * log stays in the chunks. Lines are decoded only when drained, and only the kept ones, so feeding
 * costs a scan for newlines; a line or a UTF-8 character split across chunks is joined first.
 *
 * <p>Not thread-safe. The arrays fed are referenced, not copied, until the next {@link #drain()}:
 * do not change them before it.
 */
final class LogLines {

  static final int MAX_LINES = 50;
  static final int MAX_BYTES = 8 * 1024;

  /** The line being fed, not ended yet: its first {@link #MAX_BYTES} bytes. */
  private byte[] partial = new byte[256];

  private int partialLength;
  private boolean inPartial;

  /** The newest lines, as slices of the arrays fed, in a ring. */
  private final byte[][] arrays = new byte[MAX_LINES][];

  private final int[] starts = new int[MAX_LINES];
  private final int[] ends = new int[MAX_LINES];
  private long lines;

  /** Feeds the next bytes of the output. */
  void feed(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int start = offset;
    while (start < end) {
      int newline = indexOfNewline(bytes, start, end);
      if (newline < 0) {
        appendPartial(bytes, start, end);
        return;
      }
      if (inPartial) {
        appendPartial(bytes, start, newline);
        add(Arrays.copyOf(partial, partialLength), 0, partialLength);
        partialLength = 0;
        inPartial = false;
      } else {
        add(bytes, start, Math.min(newline, start + MAX_BYTES));
      }
      start = newline + 1;
    }
  }

  /** Ends the output: a last line without a newline counts as a line. */
  void finish() {
    if (inPartial) {
      add(Arrays.copyOf(partial, partialLength), 0, partialLength);
      partialLength = 0;
      inPartial = false;
    }
  }

  /** How many lines ended since the last drain, kept or not. */
  long ended() {
    return lines;
  }

  /**
   * The newest lines ended since the last drain, oldest first, within the caps; forgets them all.
   */
  List<String> drain() {
    int available = (int) Math.min(lines, MAX_LINES);
    int kept = 0;
    int bytes = 0;
    for (int i = 0; i < available; i++) {
      int slot = slot(lines - 1 - i);
      int length = ends[slot] - starts[slot];
      if (kept > 0 && bytes + length > MAX_BYTES) {
        break;
      }
      bytes += length;
      kept++;
    }
    List<String> drained = new ArrayList<>(kept);
    for (long line = lines - kept; line < lines; line++) {
      int slot = slot(line);
      drained.add(decode(arrays[slot], starts[slot], ends[slot]));
    }
    Arrays.fill(arrays, null);
    lines = 0;
    return drained;
  }

  private void add(byte[] bytes, int start, int end) {
    int slot = slot(lines++);
    arrays[slot] = bytes;
    starts[slot] = start;
    ends[slot] = end;
  }

  private static int slot(long line) {
    return (int) (line % MAX_LINES);
  }

  private void appendPartial(byte[] bytes, int start, int end) {
    inPartial = true;
    int n = Math.min(end - start, MAX_BYTES - partialLength);
    if (n <= 0) {
      return;
    }
    if (partialLength + n > partial.length) {
      partial =
          Arrays.copyOf(
              partial, Math.min(MAX_BYTES, Math.max(partialLength + n, 2 * partial.length)));
    }
    System.arraycopy(bytes, start, partial, partialLength, n);
    partialLength += n;
  }

  /**
   * A line's text: without a trailing carriage return, and without a UTF-8 character cut short at
   * the length cap; other malformed bytes become U+FFFD.
   */
  static String decode(byte[] bytes, int start, int end) {
    if (end > start && bytes[end - 1] == '\r') {
      end--;
    }
    end = start + completeUtf8(bytes, start, end);
    return new String(bytes, start, end - start, StandardCharsets.UTF_8);
  }

  /** The length of {@code bytes[start, end)} without an incomplete UTF-8 sequence at its end. */
  static int completeUtf8(byte[] bytes, int start, int end) {
    int lead = end - 1;
    // At most three continuation bytes (10xxxxxx) precede a sequence's end.
    while (lead >= start && lead > end - 4 && (bytes[lead] & 0xC0) == 0x80) {
      lead--;
    }
    if (lead < start) {
      return end - start;
    }
    int b = bytes[lead] & 0xFF;
    int needed = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    return end - lead < needed ? lead - start : end - start;
  }

  private static int indexOfNewline(byte[] bytes, int start, int end) {
    for (int i = start; i < end; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
