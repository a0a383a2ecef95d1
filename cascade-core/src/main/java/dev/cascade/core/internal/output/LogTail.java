package dev.cascade.core.internal.output;

import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The last lines of a sim's stored log, read backwards from its newest chunks a page at a time, so
 * a tail costs the bytes of its lines, not of the log. A last line without a newline counts.
 */
final class LogTail {

  /** Chunks read per query. */
  private static final int PAGE_CHUNKS = 16;

  /** A tail stops reading back here, whatever it has found: its first lines may then be missing. */
  static final int MAX_BYTES = 1 << 20;

  private LogTail() {}

  static List<String> read(ChunkRepository chunks, String simId, int lines) {
    if (lines == 0) {
      return List.of();
    }
    Deque<byte[]> pieces = new ArrayDeque<>();
    long total = 0;
    long newlines = 0;
    boolean endsWithNewline = false;
    boolean atStart = false;
    long before = Long.MAX_VALUE;
    while (true) {
      List<Chunk> page = chunks.readBackwards(simId, before, PAGE_CHUNKS);
      for (Chunk chunk : page) {
        byte[] bytes = chunk.bytes();
        if (pieces.isEmpty() && total == 0 && bytes.length > 0) {
          endsWithNewline = bytes[bytes.length - 1] == '\n';
        }
        if (bytes.length > 0) {
          pieces.addFirst(bytes);
          total += bytes.length;
          newlines += count(bytes);
        }
        before = chunk.seq();
      }
      if (page.size() < PAGE_CHUNKS || before == 0) {
        atStart = true;
        break;
      }
      if (newlines >= lines + (endsWithNewline ? 1 : 0) || total >= MAX_BYTES) {
        break;
      }
    }
    if (total == 0) {
      return List.of();
    }
    byte[] log = new byte[(int) Math.min(total, Integer.MAX_VALUE - 8)];
    int at = 0;
    for (byte[] piece : pieces) {
      int n = Math.min(piece.length, log.length - at);
      System.arraycopy(piece, 0, log, at, n);
      at += n;
    }
    int end = endsWithNewline ? log.length - 1 : log.length;
    int start = atStart ? 0 : firstLineStart(log, end);
    List<String> tail = new ArrayList<>();
    int lineStart = start;
    for (int i = start; i <= end; i++) {
      if (i == end || log[i] == '\n') {
        tail.add(LogLines.decode(log, lineStart, i));
        lineStart = i + 1;
      }
    }
    return tail.size() <= lines
        ? tail
        : List.copyOf(tail.subList(tail.size() - lines, tail.size()));
  }

  /** Where the first whole line starts when the bytes read may begin inside a line. */
  private static int firstLineStart(byte[] log, int end) {
    for (int i = 0; i < end; i++) {
      if (log[i] == '\n') {
        return i + 1;
      }
    }
    // One line longer than the bytes read: show its end, from a character boundary.
    int start = 0;
    while (start < end && (log[start] & 0xC0) == 0x80) {
      start++;
    }
    return start;
  }

  private static long count(byte[] bytes) {
    long n = 0;
    for (byte b : bytes) {
      if (b == '\n') {
        n++;
      }
    }
    return n;
  }
}
