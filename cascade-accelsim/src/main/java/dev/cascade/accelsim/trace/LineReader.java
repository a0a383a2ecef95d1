package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Splits a byte stream into {@code '\n'}-separated lines without decoding or copying them: after
 * {@link #next()} the line is {@code buffer()[start(), end())}, valid until the next call.
 *
 * <p>The lines are those of C++'s {@code while (!in.eof()) getline(in, line)} loop, which
 * Accel-Sim's post-processor uses: the text after the last {@code '\n'} is a line even when empty,
 * so input ending in a newline (or empty input) yields a final empty line. {@code '\r'} is kept.
 */
final class LineReader {

  private final InputStream in;
  private final Path source;
  private final int maxLineLength;
  private byte[] buffer;
  private int position;
  private int limit;
  private boolean endOfInput;
  private boolean lastLineGiven;
  private boolean terminated;
  private int start;
  private int end;
  private long lineNumber;

  /**
   * @param source named in the error for a line longer than {@code maxLineLength}
   */
  LineReader(InputStream in, Path source, int initialBuffer, int maxLineLength) {
    this.in = in;
    this.source = source;
    this.maxLineLength = maxLineLength;
    this.buffer = new byte[Math.max(16, initialBuffer)];
  }

  /** Moves to the next line; false at the end of the input. */
  boolean next() throws IOException {
    int searchFrom = position;
    while (true) {
      for (int i = searchFrom; i < limit; i++) {
        if (buffer[i] == '\n') {
          start = position;
          end = i;
          position = i + 1;
          lineNumber++;
          terminated = true;
          return true;
        }
      }
      if (endOfInput) {
        if (lastLineGiven) {
          return false;
        }
        lastLineGiven = true;
        start = position;
        end = limit;
        position = limit;
        lineNumber++;
        terminated = false;
        return true;
      }
      searchFrom = limit - position;
      fill();
    }
  }

  /**
   * Whether a {@code '\n'} ends the current line: false only for the text after the last newline
   * (empty when the input ends in a newline), which C's {@code fgets} would not read as a line when
   * empty.
   */
  boolean terminated() {
    return terminated;
  }

  /** The buffer holding the current line. */
  byte[] buffer() {
    return buffer;
  }

  /** Index of the current line's first byte in {@link #buffer()}. */
  int start() {
    return start;
  }

  /** Index just past the current line's last byte (the {@code '\n'} is not part of the line). */
  int end() {
    return end;
  }

  /** The 1-based number of the current line. */
  long lineNumber() {
    return lineNumber;
  }

  /** The current line decoded as UTF-8 (for header lines and messages, not for the hot path). */
  String text() {
    return new String(buffer, start, end - start, StandardCharsets.UTF_8);
  }

  /** Moves the unread bytes to the front, grows the buffer if a line fills it, and reads more. */
  private void fill() throws IOException {
    int pending = limit - position;
    if (position > 0) {
      System.arraycopy(buffer, position, buffer, 0, pending);
      position = 0;
      limit = pending;
    }
    if (limit == buffer.length) {
      if (buffer.length >= maxLineLength) {
        throw new TraceFormatException(
            source,
            lineNumber + 1,
            "a line is longer than "
                + maxLineLength
                + " bytes; this does not look like an Accel-Sim trace");
      }
      buffer = Arrays.copyOf(buffer, (int) Math.min((long) buffer.length * 2, maxLineLength));
    }
    int read = in.read(buffer, limit, buffer.length - limit);
    if (read < 0) {
      endOfInput = true;
    } else {
      limit += read;
    }
  }
}
