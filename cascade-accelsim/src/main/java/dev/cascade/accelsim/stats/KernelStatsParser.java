package dev.cascade.accelsim.stats;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * Streaming parser of Accel-Sim (GPGPU-Sim) simulator output: feed it the log's bytes in chunks of
 * any size, split anywhere (inside a line or a UTF-8 character), and it tells its {@link
 * StatsListener} about build strings, memcpy commands, kernel launches, finished kernels with their
 * statistics, and how the log ended.
 *
 * <p>Memory stays constant whatever the log size: the parser keeps the current partial line (at
 * most {@code maxLineBytes}; the excess of a longer line is dropped), the current statistics block,
 * its counts of the statistic keys and one instance counter per distinct kernel name; the keys
 * themselves, and the block layouts seen last, are learnt once in a bounded table that all parsers
 * in the JVM share (so a server's thousandth sim parses its first kernel as cheaply as its last).
 * It never fails on an unknown or malformed line: such lines are skipped.
 *
 * <p>A kernel's own cycles and instructions are the differences of {@code gpu_tot_sim_cycle} and
 * {@code gpu_tot_sim_insn} from the previous block, which is what Accel-Sim's {@code get_stats.py
 * -k -K} reports. A block starts at {@code kernel_name = ...} and ends at {@code
 * gpgpu_silicon_slowdown = ...}; a new {@code kernel_name}, a launch or memcpy line, an end line or
 * {@link #finish()} also ends an open block.
 *
 * <p>This class assembles lines from the chunks, as bytes, so a UTF-8 character split between two
 * chunks is decoded whole; {@code LogLines} says what each line means, {@code StatsBlock} collects
 * a kernel's statistics, {@code NumberScanner} and {@code Bytes} read them without decoding.
 *
 * <p>Not thread-safe: feed one parser from one thread at a time.
 *
 * <pre>{@code
 * KernelStatsParser parser = new KernelStatsParser(new StatsListener() {
 *   @Override public void onKernelFinished(KernelStats kernel) {
 *     System.out.println(kernel.name() + " " + kernel.cycles());
 *   }
 * });
 * parser.feed(chunk, 0, chunk.length);  // as often as output arrives
 * LogOutcome outcome = parser.finish();
 * }</pre>
 */
public final class KernelStatsParser {

  /** The default cap of one line's length: 1 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;

  private static final int MIN_LINE_BYTES = 256;
  private static final int READ_BUFFER_BYTES = 1 << 20;

  private final LogLines lines;
  private final int maxLineBytes;

  // The current partial line.
  private byte[] pending = new byte[MIN_LINE_BYTES];
  private int pendingLength;
  private boolean finished;

  /** A parser that reports to {@code listener}, with lines capped at 1 MiB. */
  public KernelStatsParser(StatsListener listener) {
    this(listener, DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * A parser that reports to {@code listener} and keeps at most {@code maxLineBytes} of any line
   * (at least 256).
   */
  public KernelStatsParser(StatsListener listener, int maxLineBytes) {
    Objects.requireNonNull(listener, "listener");
    if (maxLineBytes < MIN_LINE_BYTES) {
      throw new IllegalArgumentException(
          "maxLineBytes must be at least " + MIN_LINE_BYTES + ": '" + maxLineBytes + "'");
    }
    this.lines = new LogLines(listener);
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Parses a whole file, streaming it through a 1 MiB buffer, and returns how it ended.
   *
   * @throws IOException when the file cannot be opened or read
   */
  public static LogOutcome parse(Path file, StatsListener listener) throws IOException {
    KernelStatsParser parser = new KernelStatsParser(listener);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      parser.feed(channel);
    }
    return parser.finish();
  }

  /**
   * Parses everything {@code in} yields until its end and returns how the log ended; does not close
   * {@code in}.
   */
  public static LogOutcome parse(InputStream in, StatsListener listener) throws IOException {
    KernelStatsParser parser = new KernelStatsParser(listener);
    byte[] buffer = new byte[READ_BUFFER_BYTES];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      parser.feed(buffer, 0, n);
    }
    return parser.finish();
  }

  /**
   * Feeds everything {@code channel} yields until its end, through a 1 MiB buffer; does not close
   * it and does not {@link #finish}. When reading fails, what was read before is fed already (and
   * its finished kernels reported), so {@code finish()} still tells how far the log got.
   *
   * @throws IOException when the channel cannot be read
   */
  public void feed(ReadableByteChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    while (channel.read(buffer) >= 0) {
      buffer.flip();
      feed(buffer);
      buffer.clear();
    }
  }

  /** Feeds all of {@code bytes}. */
  public void feed(byte[] bytes) {
    feed(bytes, 0, bytes.length);
  }

  /** Feeds the {@code buffer}'s remaining bytes and moves its position to its limit. */
  public void feed(ByteBuffer buffer) {
    if (buffer.hasArray()) {
      feed(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
      buffer.position(buffer.limit());
      return;
    }
    byte[] chunk = new byte[Math.min(buffer.remaining(), 1 << 16)];
    while (buffer.hasRemaining()) {
      int n = Math.min(chunk.length, buffer.remaining());
      buffer.get(chunk, 0, n);
      feed(chunk, 0, n);
    }
  }

  /**
   * Feeds {@code bytes[offset, offset + length)}: the next bytes of the log, split anywhere.
   *
   * @throws IllegalStateException after {@link #finish()}
   */
  public void feed(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (finished) {
      throw new IllegalStateException("feed after finish(): this parser's log has ended");
    }
    int end = offset + length;
    int start = offset;
    if (pendingLength > 0) {
      int newline = Bytes.indexOf(bytes, start, end, (byte) '\n');
      if (newline < 0) {
        appendPending(bytes, start, end);
        return;
      }
      appendPending(bytes, start, newline);
      int n = pendingLength;
      pendingLength = 0;
      lines.line(pending, 0, n);
      start = newline + 1;
    }
    while (start < end) {
      int newline = Bytes.indexOf(bytes, start, end, (byte) '\n');
      if (newline < 0) {
        appendPending(bytes, start, end);
        return;
      }
      lines.line(bytes, start, Math.min(newline, start + maxLineBytes));
      start = newline + 1;
    }
  }

  /**
   * Ends the log: parses a last line without a newline, closes an open statistics block, reports
   * {@link LogOutcome.State#INCOMPLETE} when no end line was seen, and returns the outcome. Calling
   * it again only returns the outcome.
   */
  public LogOutcome finish() {
    if (finished) {
      return lines.outcome();
    }
    finished = true;
    if (pendingLength > 0) {
      int n = pendingLength;
      pendingLength = 0;
      lines.line(pending, 0, n);
    }
    lines.end();
    return lines.outcome();
  }

  /** How the log ended, as far as the lines seen so far tell. */
  public LogOutcome outcome() {
    return lines.outcome();
  }

  /** The number of statistics blocks (finished kernels) reported so far. */
  public int kernelsFinished() {
    return lines.kernelsFinished();
  }

  private void appendPending(byte[] bytes, int start, int end) {
    int n = Math.min(end - start, maxLineBytes - pendingLength);
    if (n <= 0) {
      return;
    }
    if (pendingLength + n > pending.length) {
      pending =
          Arrays.copyOf(
              pending, Math.min(maxLineBytes, Math.max(pendingLength + n, 2 * pending.length)));
    }
    System.arraycopy(bytes, start, pending, pendingLength, n);
    pendingLength += n;
  }
}
