package dev.cascade.accelsim.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Searching and trimming {@code b[start, end)} of a log's bytes without decoding them: the parser
 * looks at every byte of a 200 MB log, and decodes only the few names and reasons it reports.
 */
final class Bytes {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;

  private Bytes() {}

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  static int skipBlanks(byte[] b, int start, int end) {
    while (start < end && (b[start] == ' ' || b[start] == '\t')) {
      start++;
    }
    return start;
  }

  static int trimRight(byte[] b, int start, int end) {
    while (end > start && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
      end--;
    }
    return end;
  }

  static String decodeTrimmed(byte[] b, int start, int end) {
    int s = skipBlanks(b, start, end);
    int e = trimRight(b, s, end);
    return new String(b, s, e - s, StandardCharsets.UTF_8);
  }

  static boolean startsWith(byte[] b, int start, int end, byte[] prefix) {
    return end - start >= prefix.length
        && Arrays.equals(b, start, start + prefix.length, prefix, 0, prefix.length);
  }

  /** The first {@code target} in {@code b[start, end)}, or -1; looks at eight bytes at a time. */
  static int indexOf(byte[] b, int start, int end, byte target) {
    long pattern = ONES * (target & 0xFF);
    int i = start;
    for (int last = end - Long.BYTES; i <= last; i += Long.BYTES) {
      long word = (long) LONGS.get(b, i) ^ pattern; // a zero byte where b has target
      long zeros = (word - ONES) & ~word & HIGH_BITS; // the lowest flag marks the first zero
      if (zeros != 0) {
        return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
      }
    }
    if (i < end && end >= Long.BYTES) {
      // The last 1 to 7 bytes: one word ending at end, ignoring the bytes before i.
      // (Exact per byte: a target before i must not flag the byte after it.)
      int from = end - Long.BYTES;
      long word = (long) LONGS.get(b, from) ^ pattern;
      long zeros = ~(((word & LOW_BITS) + LOW_BITS) | word | LOW_BITS) & (-1L << ((i - from) << 3));
      return zeros == 0 ? -1 : from + (Long.numberOfTrailingZeros(zeros) >>> 3);
    }
    for (; i < end; i++) {
      if (b[i] == target) {
        return i;
      }
    }
    return -1;
  }

  static int indexOf(byte[] b, int start, int end, byte[] target) {
    byte first = target[0];
    for (int i = start, last = end - target.length; i <= last; i++) {
      if (b[i] == first && Arrays.equals(b, i, i + target.length, target, 0, target.length)) {
        return i;
      }
    }
    return -1;
  }

  static int lastIndexOf(byte[] b, int start, int end, byte[] target) {
    byte first = target[0];
    for (int i = end - target.length; i >= start; i--) {
      if (b[i] == first && Arrays.equals(b, i, i + target.length, target, 0, target.length)) {
        return i;
      }
    }
    return -1;
  }
}
