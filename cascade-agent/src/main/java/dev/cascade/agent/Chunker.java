package dev.cascade.agent;

import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.StatsListener;
import java.io.OutputStream;
import java.time.Clock;
import java.util.function.LongConsumer;

/**
 * The simulator's output goes in here: it is cut into numbered chunks ({@link ChunkCutter}), each
 * written to the spool with the wall time its last bytes were read, read by Accel-Sim's stats
 * parser (for the failure lines of DESIGN.md section 13) and handed to the sender, in order.
 * Writers never block on the network. After {@link #close()} further output is ignored.
 * Thread-safe.
 */
final class Chunker extends OutputStream {

  private final ChunkCutter cutter;
  private final Spool spool;
  private final LongConsumer onChunk;
  private final Clock wallClock;
  private final KernelStatsParser parser = new KernelStatsParser(new StatsListener() {});
  private long produced;
  private long bytes;
  private boolean closed;

  /** When the latest write came: every byte of a chunk cut now was read by then. */
  private long lastWriteMillis;

  /**
   * @param onChunk told each new chunk's seq, once it is spooled
   */
  Chunker(int maxBytes, long maxAgeNanos, Spool spool, LongConsumer onChunk) {
    this(maxBytes, maxAgeNanos, spool, onChunk, Clock.systemUTC());
  }

  /**
   * @param wallClock stamps each chunk with when its last bytes were read
   */
  Chunker(int maxBytes, long maxAgeNanos, Spool spool, LongConsumer onChunk, Clock wallClock) {
    this.cutter = new ChunkCutter(maxBytes, maxAgeNanos);
    this.spool = spool;
    this.onChunk = onChunk;
    this.wallClock = wallClock;
  }

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    if (closed || len == 0) {
      return;
    }
    bytes += len;
    // A chunk cut by this write, by a later tick or by close holds no byte read after this.
    lastWriteMillis = wallClock.millis();
    cutter.write(b, off, len, System.nanoTime(), this::emit);
  }

  /** Does nothing: chunks are cut by size and age, not by the writer's flushes. */
  @Override
  public void flush() {}

  /** Cuts what has waited long enough; called by the agent's timer. */
  synchronized void tick() {
    if (!closed) {
      cutter.tick(System.nanoTime(), this::emit);
    }
  }

  /** Cuts the last chunk and ends the stream; idempotent. */
  @Override
  public synchronized void close() {
    if (!closed) {
      cutter.flush(this::emit);
      closed = true;
      parser.finish();
    }
  }

  /** Chunks produced so far: 0 .. produced-1. */
  synchronized long produced() {
    return produced;
  }

  /** Output bytes taken so far. */
  synchronized long bytes() {
    return bytes;
  }

  /** How the output ended, as far as Accel-Sim's failure and exit lines tell. */
  synchronized LogOutcome outcome() {
    return parser.outcome();
  }

  private void emit(byte[] chunk) {
    long seq = produced++;
    spool.write(seq, chunk, lastWriteMillis);
    parser.feed(chunk);
    onChunk.accept(seq);
  }
}
