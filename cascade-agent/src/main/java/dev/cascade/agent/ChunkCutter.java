package dev.cascade.agent;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Cuts a byte stream into chunks of at most {@code maxBytes}, at a line's end when it can: a full
 * buffer is cut after its last newline (all of it when it holds none: a line longer than a chunk is
 * split), and bytes that have waited {@code maxAgeNanos} are cut after their last newline (all of
 * them when there is none, so a prompt without a newline still goes out). Not thread-safe.
 */
final class ChunkCutter {

  private final byte[] buffer;
  private final long maxAgeNanos;
  private int length;
  private long oldest;

  ChunkCutter(int maxBytes, long maxAgeNanos) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("a chunk must hold at least one byte; got " + maxBytes);
    }
    this.buffer = new byte[maxBytes];
    this.maxAgeNanos = maxAgeNanos;
  }

  /** Takes {@code bytes[offset, offset + count)}, emitting every chunk that fills up. */
  void write(byte[] bytes, int offset, int count, long now, Consumer<byte[]> emit) {
    while (count > 0) {
      if (length == 0) {
        oldest = now;
      }
      int n = Math.min(count, buffer.length - length);
      System.arraycopy(bytes, offset, buffer, length, n);
      length += n;
      offset += n;
      count -= n;
      if (length == buffer.length) {
        cut(now, emit);
      }
    }
  }

  /** Emits what has waited {@code maxAgeNanos} or more. */
  void tick(long now, Consumer<byte[]> emit) {
    if (length > 0 && now - oldest >= maxAgeNanos) {
      cut(now, emit);
    }
  }

  /** Emits whatever is held, newline or not. */
  void flush(Consumer<byte[]> emit) {
    if (length > 0) {
      emit.accept(Arrays.copyOf(buffer, length));
      length = 0;
    }
  }

  /** Bytes held, not yet emitted. */
  int held() {
    return length;
  }

  private void cut(long now, Consumer<byte[]> emit) {
    int end = lastNewline() + 1;
    if (end == 0) {
      end = length;
    }
    emit.accept(Arrays.copyOf(buffer, end));
    System.arraycopy(buffer, end, buffer, 0, length - end);
    length -= end;
    oldest = now;
  }

  private int lastNewline() {
    for (int i = length - 1; i >= 0; i--) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
