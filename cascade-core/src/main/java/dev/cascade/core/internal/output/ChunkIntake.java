package dev.cascade.core.internal.output;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import dev.cascade.core.internal.store.ChunkRepository.Encoded;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Chunk intake: stores a sim's chunks idempotently by seq (the first copy wins, a re-send of the
 * same bytes changes nothing, one of other bytes is refused), keeps a chunk that arrives after a
 * gap, and finds the chunks that have become contiguous once the gap fills. Works in the caller's
 * write transaction, so it sees the chunk the transaction has just stored.
 */
final class ChunkIntake {

  /** Chunks read at a time when a filled gap releases held chunks. */
  private static final int PAGE_CHUNKS = 64;

  private final ChunkRepository chunks;

  ChunkIntake(ChunkRepository chunks) {
    this.chunks = chunks;
  }

  /**
   * Stores chunk {@code seq} unless one with that seq is already held.
   *
   * @return true when the chunk was new
   */
  boolean store(Connection connection, String simId, long seq, Encoded chunk, Instant readAt)
      throws SQLException {
    return chunks.insert(connection, simId, seq, chunk, readAt);
  }

  /** The highest seq held for the sim; -1 when none is. */
  long highestHeld(String simId) {
    return chunks.highestSeq(simId);
  }

  /** True when chunk {@code seq} of the sim is held. */
  boolean holds(Connection connection, String simId, long seq) throws SQLException {
    return held(connection, simId, seq) != null;
  }

  /**
   * Checks that chunk {@code seq}, sent again, has the bytes held for it. A re-send with other
   * bytes is refused ({@code conflict}) rather than answered as held: the app keeps the first copy,
   * so answering 2xx would acknowledge bytes it does not hold.
   */
  void requireSameAsHeld(Connection connection, String simId, long seq, byte[] bytes)
      throws SQLException {
    byte[] held = held(connection, simId, seq);
    if (held != null && !Arrays.equals(held, bytes)) {
      throw new CascadeException(
          ErrorCode.CONFLICT,
          "sim "
              + simId
              + " already holds chunk "
              + seq
              + " with other bytes ("
              + held.length
              + " held, "
              + bytes.length
              + " sent); a chunk never changes once held, so this one is not stored",
          "seq");
    }
  }

  private byte[] held(Connection connection, String simId, long seq) throws SQLException {
    List<Chunk> held = chunks.read(connection, simId, seq, 1);
    return !held.isEmpty() && held.getFirst().seq() == seq ? held.getFirst().bytes() : null;
  }

  /** How many chunks are held without a gap, knowing that chunks 0 to {@code from - 1} are. */
  long contiguousFrom(Connection connection, String simId, long from) throws SQLException {
    return contiguousFrom(connection, simId, from, (bytes, readAt) -> {});
  }

  /**
   * Hands each held chunk from seq {@code from} on to {@code each}, in order, up to the first gap,
   * with when its bytes were read (the agent's stamp, else its arrival).
   *
   * @return the seq of the first chunk not held: chunks 0 to that seq - 1 are all held
   */
  long contiguousFrom(
      Connection connection, String simId, long from, BiConsumer<byte[], Instant> each)
      throws SQLException {
    long next = from;
    while (true) {
      List<Chunk> held = chunks.read(connection, simId, next, PAGE_CHUNKS);
      if (held.isEmpty()) {
        return next;
      }
      for (Chunk chunk : held) {
        if (chunk.seq() != next) {
          return next;
        }
        each.accept(chunk.bytes(), chunks.readOrReceivedAt(connection, simId, next));
        next++;
      }
    }
  }
}
