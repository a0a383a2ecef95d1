package dev.cascade.core.internal.store;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The {@code chunks} table: a sim's raw output in numbered pieces, {@code seq} from 0. Storing is
 * idempotent by {@code (sim_id, seq)}; chunks may arrive in any order and are read back in order.
 * Each chunk is kept zstd-compressed ({@link Encoded}, codec {@code zstd}) unless that would not
 * make it smaller; chunks stored before compression (codec {@code raw}) read back as they are.
 */
public final class ChunkRepository {

  /** Reads of a sim's log fetch at most this many chunks per query... */
  private static final int PAGE_CHUNKS = 256;

  /** ...and stop a page once it holds this many bytes, so a log never sits in memory whole. */
  private static final int PAGE_BYTES = 4 * 1024 * 1024;

  /** Sims whose log sizes {@link #size} reads per query: well under SQLite's variable limit. */
  private static final int SIMS_PER_QUERY = 500;

  /**
   * One piece of a sim's output. The bytes are not copied: do not change them after handing them
   * over.
   */
  public record Chunk(String simId, long seq, byte[] bytes) {

    public Chunk {
      Objects.requireNonNull(simId, "simId");
      Objects.requireNonNull(bytes, "bytes");
      if (seq < 0) {
        throw new IllegalArgumentException(
            "chunk seq counts from 0; got " + seq + " for sim " + simId);
      }
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Chunk that
          && simId.equals(that.simId)
          && seq == that.seq
          && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
      return Objects.hash(simId, seq, Arrays.hashCode(bytes));
    }

    @Override
    public String toString() {
      return "Chunk[simId=" + simId + ", seq=" + seq + ", " + bytes.length + " bytes]";
    }
  }

  /**
   * A chunk's bytes as they are stored: {@code raw} itself, or one zstd frame of it. Build it with
   * {@link #of} before the write transaction, so the single writer's turn does not compress.
   */
  public record Encoded(byte[] raw, String codec, byte[] stored) {

    static final String RAW = "raw";
    static final String ZSTD = "zstd";

    public Encoded {
      Objects.requireNonNull(raw, "raw");
      Objects.requireNonNull(stored, "stored");
      if (!RAW.equals(codec) && !ZSTD.equals(codec)) {
        throw new IllegalArgumentException("chunk codec is raw or zstd; got \"" + codec + "\"");
      }
    }

    /** {@code raw} as it is. */
    public static Encoded uncompressed(byte[] raw) {
      return new Encoded(raw, RAW, raw);
    }

    /** {@code raw} compressed, or as it is when compressing would not make it smaller. */
    public static Encoded of(byte[] raw) {
      byte[] compressed = Compression.compress(raw, Compression.CHUNK_LEVEL);
      return compressed.length < raw.length
          ? new Encoded(raw, ZSTD, compressed)
          : new Encoded(raw, RAW, raw);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Encoded that
          && codec.equals(that.codec)
          && Arrays.equals(raw, that.raw)
          && Arrays.equals(stored, that.stored);
    }

    @Override
    public int hashCode() {
      return Objects.hash(codec, Arrays.hashCode(raw));
    }

    @Override
    public String toString() {
      return "Encoded[" + raw.length + " bytes, " + codec + ", " + stored.length + " stored]";
    }
  }

  private static final String INSERT =
      "INSERT INTO chunks (sim_id, seq, bytes, received_at, codec, size, read_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sim_id, seq) DO NOTHING";

  private static final String SELECT_FORWARD =
      "SELECT seq, bytes, codec, size FROM chunks WHERE sim_id = ? AND seq >= ?"
          + " ORDER BY seq LIMIT ?";

  private final Database database;
  private final Clock clock;

  public ChunkRepository(Database database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Stores a chunk unless one with its {@code (sim_id, seq)} is already stored; the first copy
   * wins.
   *
   * @return true when the chunk was new
   * @throws dev.cascade.core.CascadeException {@code not_found} when the sim does not exist
   */
  public boolean insert(Chunk chunk) {
    return insertAll(List.of(chunk)).get(0);
  }

  /**
   * Stores many chunks in one transaction (one commit for all of them), each unless already stored.
   * When any chunk names a sim that does not exist, nothing is stored.
   *
   * @return for each chunk, in order, whether it was new
   * @throws dev.cascade.core.CascadeException {@code not_found} when a sim does not exist
   */
  public List<Boolean> insertAll(List<Chunk> chunks) {
    List<Chunk> batch = List.copyOf(chunks);
    if (batch.isEmpty()) {
      return List.of();
    }
    String receivedAt = SqlTimes.text(clock.instant());
    List<Encoded> encoded = batch.stream().map(chunk -> Encoded.of(chunk.bytes())).toList();
    return database.write(
        connection -> {
          requireSimsExist(connection, batch);
          List<Boolean> inserted = new ArrayList<>(batch.size());
          try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (int i = 0; i < batch.size(); i++) {
              // One statement at a time: a batch would not say which rows were duplicates.
              Chunk chunk = batch.get(i);
              inserted.add(
                  insert(insert, chunk.simId(), chunk.seq(), encoded.get(i), receivedAt, null));
            }
          }
          return List.copyOf(inserted);
        });
  }

  /**
   * Stores a chunk in the caller's write transaction ({@link Database#write}) unless one with its
   * {@code (sim_id, seq)} is already stored; the first copy wins. The sim must exist: the foreign
   * key refuses a chunk of an unknown sim.
   *
   * @return true when the chunk was new
   */
  public boolean insert(Connection connection, Chunk chunk) throws SQLException {
    return insert(connection, chunk.simId(), chunk.seq(), Encoded.of(chunk.bytes()));
  }

  /**
   * {@link #insert(Connection, Chunk)} of a chunk {@link Encoded#of encoded} before the write.
   *
   * @return true when the chunk was new
   */
  public boolean insert(Connection connection, String simId, long seq, Encoded chunk)
      throws SQLException {
    return insert(connection, simId, seq, chunk, null);
  }

  /**
   * {@link #insert(Connection, String, long, Encoded)} with when the sim's agent read the chunk's
   * last bytes ({@code read_at}; null when it did not say).
   *
   * @return true when the chunk was new
   */
  public boolean insert(
      Connection connection, String simId, long seq, Encoded chunk, Instant readAt)
      throws SQLException {
    Objects.requireNonNull(simId, "simId");
    if (seq < 0) {
      throw new IllegalArgumentException(
          "chunk seq counts from 0; got " + seq + " for sim " + simId);
    }
    try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
      return insert(
          insert, simId, seq, chunk, SqlTimes.text(clock.instant()), SqlTimes.text(readAt));
    }
  }

  /**
   * When chunk {@code seq}'s bytes were read: the agent's stamp ({@code read_at}), else when the
   * chunk arrived; null when the chunk is not held. Read on the caller's connection.
   */
  public Instant readOrReceivedAt(Connection connection, String simId, long seq)
      throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT coalesce(read_at, received_at) FROM chunks WHERE sim_id = ? AND seq = ?")) {
      select.setString(1, simId);
      select.setLong(2, seq);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? SqlTimes.instant(row.getString(1)) : null;
      }
    }
  }

  /**
   * Copies every chunk of sim {@code fromId} to sim {@code toId} in the caller's write transaction:
   * a reused sim's log is the earlier sim's, byte for byte.
   */
  public static void copy(Connection connection, String fromId, String toId) throws SQLException {
    try (PreparedStatement copy =
        connection.prepareStatement(
            "INSERT INTO chunks (sim_id, seq, bytes, received_at, codec, size, read_at)"
                + " SELECT ?, seq, bytes, received_at, codec, size, read_at FROM chunks"
                + " WHERE sim_id = ?")) {
      copy.setString(1, toId);
      copy.setString(2, fromId);
      copy.executeUpdate();
    }
  }

  private static boolean insert(
      PreparedStatement insert,
      String simId,
      long seq,
      Encoded chunk,
      String receivedAt,
      String readAt)
      throws SQLException {
    insert.setString(1, simId);
    insert.setLong(2, seq);
    insert.setBytes(3, chunk.stored());
    insert.setString(4, receivedAt);
    insert.setString(5, chunk.codec());
    if (Encoded.RAW.equals(chunk.codec())) {
      insert.setNull(6, java.sql.Types.INTEGER);
    } else {
      insert.setLong(6, chunk.raw().length);
    }
    insert.setString(7, readAt);
    return insert.executeUpdate() == 1;
  }

  /** The chunk of the row at {@code rows}' cursor ({@code seq, bytes, codec, size}), decoded. */
  private static Chunk decoded(String simId, ResultSet rows) throws SQLException {
    long seq = rows.getLong(1);
    byte[] stored = rows.getBytes(2);
    String codec = rows.getString(3);
    if (Encoded.ZSTD.equals(codec)) {
      try {
        return new Chunk(simId, seq, Compression.decompress(stored, rows.getLong(4)));
      } catch (IllegalStateException e) {
        throw new IllegalStateException(
            "chunk " + seq + " of sim " + simId + " is damaged: " + e.getMessage(), e);
      }
    }
    return new Chunk(simId, seq, stored);
  }

  /**
   * The sim's stored chunks from {@code fromSeq} on, in seq order, read on the caller's connection
   * (so inside a write transaction they include its own inserts): at most {@code limit} chunks, and
   * no more once they hold 4 MiB (always at least one). Seqs not stored are skipped.
   */
  public List<Chunk> read(Connection connection, String simId, long fromSeq, int limit)
      throws SQLException {
    Objects.requireNonNull(simId, "simId");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be 1 or more; got " + limit);
    }
    List<Chunk> chunks = new ArrayList<>();
    try (PreparedStatement select = connection.prepareStatement(SELECT_FORWARD)) {
      select.setString(1, simId);
      select.setLong(2, Math.max(0, fromSeq));
      select.setInt(3, limit);
      long bytes = 0;
      try (ResultSet rows = select.executeQuery()) {
        while (bytes < PAGE_BYTES && rows.next()) {
          Chunk chunk = decoded(simId, rows);
          bytes += chunk.bytes().length;
          chunks.add(chunk);
        }
      }
    }
    return chunks;
  }

  /**
   * Up to {@code limit} of the sim's stored chunks with a seq below {@code beforeSeq}, highest seq
   * first: the end of its log, for reading it backwards a page at a time.
   */
  public List<Chunk> readBackwards(String simId, long beforeSeq, int limit) {
    Objects.requireNonNull(simId, "simId");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be 1 or more; got " + limit);
    }
    return database.read(
        connection -> {
          List<Chunk> chunks = new ArrayList<>();
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT seq, bytes, codec, size FROM chunks WHERE sim_id = ? AND seq < ?"
                      + " ORDER BY seq DESC LIMIT ?")) {
            select.setString(1, simId);
            select.setLong(2, beforeSeq);
            select.setInt(3, limit);
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                chunks.add(decoded(simId, rows));
              }
            }
          }
          return chunks;
        });
  }

  /**
   * How many chunks the sim has without a gap: {@code n} when chunks 0 to n - 1 are all stored and
   * chunk n is not.
   */
  public long contiguousCount(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(
        connection -> {
          try (PreparedStatement summary =
              connection.prepareStatement(
                  "SELECT count(*), min(seq), max(seq) FROM chunks WHERE sim_id = ?")) {
            summary.setString(1, simId);
            try (ResultSet row = summary.executeQuery()) {
              row.next();
              long count = row.getLong(1);
              if (count == 0 || row.getLong(2) != 0) {
                return 0L;
              }
              if (row.getLong(3) == count - 1) {
                return count;
              }
            }
          }
          // There is a gap: the first stored seq whose successor is missing ends the prefix.
          try (PreparedStatement firstGap =
              connection.prepareStatement(
                  "SELECT c.seq + 1 FROM chunks c WHERE c.sim_id = ? AND NOT EXISTS"
                      + " (SELECT 1 FROM chunks d WHERE d.sim_id = c.sim_id AND d.seq = c.seq + 1)"
                      + " ORDER BY c.seq LIMIT 1")) {
            firstGap.setString(1, simId);
            try (ResultSet row = firstGap.executeQuery()) {
              return row.next() ? row.getLong(1) : 0L;
            }
          }
        });
  }

  /**
   * The seqs below {@code n} that are not stored, lowest first, at most {@code limit} of them: what
   * a sim that says it produced {@code n} chunks must send again.
   */
  public List<Long> missing(String simId, long n, int limit) {
    Objects.requireNonNull(simId, "simId");
    if (n < 0) {
      throw new IllegalArgumentException("chunk count cannot be negative; got " + n);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be 1 or more; got " + limit);
    }
    return database.read(
        connection -> {
          List<Long> missing = new ArrayList<>();
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT seq FROM chunks WHERE sim_id = ? AND seq < ? ORDER BY seq")) {
            select.setString(1, simId);
            select.setLong(2, n);
            long expected = 0;
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next() && missing.size() < limit) {
                long stored = rows.getLong(1);
                for (; expected < stored && missing.size() < limit; expected++) {
                  missing.add(expected);
                }
                expected = stored + 1;
              }
            }
            for (; expected < n && missing.size() < limit; expected++) {
              missing.add(expected);
            }
          }
          return List.copyOf(missing);
        });
  }

  /**
   * The sim's stored chunks from {@code fromSeq} on, in seq order, read lazily a page at a time: a
   * log of any size streams without being held in memory, and no database connection is held
   * between pages. Seqs not stored yet are skipped; chunks stored while the stream is read appear
   * when their seq is still ahead of it.
   */
  public Stream<Chunk> stream(String simId, long fromSeq) {
    Objects.requireNonNull(simId, "simId");
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(
            new PagedChunks(simId, fromSeq),
            Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.DISTINCT),
        false);
  }

  /**
   * The sim's full log so far: its stored chunks' bytes in seq order, read as for {@link #stream}.
   */
  public InputStream openLog(String simId) {
    Iterator<Chunk> chunks = new PagedChunks(Objects.requireNonNull(simId, "simId"), 0);
    return new SequenceInputStream(
        new Enumeration<InputStream>() {
          @Override
          public boolean hasMoreElements() {
            return chunks.hasNext();
          }

          @Override
          public InputStream nextElement() {
            return new ByteArrayInputStream(chunks.next().bytes());
          }
        });
  }

  /** The highest seq stored for the sim; -1 when it has none. */
  public long highestSeq(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT coalesce(max(seq), -1) FROM chunks WHERE sim_id = ?")) {
            select.setString(1, simId);
            try (ResultSet row = select.executeQuery()) {
              row.next();
              return row.getLong(1);
            }
          }
        });
  }

  /** The bytes of every chunk stored for the sim, as the sim sent them (before compression). */
  public long totalBytes(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT coalesce(sum(coalesce(size, length(bytes))), 0) FROM chunks"
                      + " WHERE sim_id = ?")) {
            select.setString(1, simId);
            try (ResultSet row = select.executeQuery()) {
              row.next();
              return row.getLong(1);
            }
          }
        });
  }

  /** A log's size: its bytes as the sim sent them, and as stored. */
  public record LogSize(long bytes, long storedBytes) {}

  /** The size of the logs of the sims {@code simIds}, together. */
  public LogSize size(List<String> simIds) {
    return database.read(
        connection -> {
          long bytes = 0;
          long stored = 0;
          for (int from = 0; from < simIds.size(); from += SIMS_PER_QUERY) {
            List<String> batch =
                simIds.subList(from, Math.min(simIds.size(), from + SIMS_PER_QUERY));
            try (PreparedStatement select =
                connection.prepareStatement(
                    "SELECT coalesce(sum(coalesce(size, length(bytes))), 0),"
                        + " coalesce(sum(length(bytes)), 0) FROM chunks WHERE sim_id IN ("
                        + String.join(", ", java.util.Collections.nCopies(batch.size(), "?"))
                        + ")")) {
              for (int i = 0; i < batch.size(); i++) {
                select.setString(i + 1, batch.get(i));
              }
              try (ResultSet row = select.executeQuery()) {
                row.next();
                bytes += row.getLong(1);
                stored += row.getLong(2);
              }
            }
          }
          return new LogSize(bytes, stored);
        });
  }

  /**
   * Deletes every chunk of the sim in the caller's write transaction: retention dropping its log.
   *
   * @return the size of what was deleted
   */
  public static LogSize delete(Connection connection, String simId) throws SQLException {
    LogSize size;
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT coalesce(sum(coalesce(size, length(bytes))), 0),"
                + " coalesce(sum(length(bytes)), 0) FROM chunks WHERE sim_id = ?")) {
      select.setString(1, simId);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        size = new LogSize(row.getLong(1), row.getLong(2));
      }
    }
    try (PreparedStatement delete =
        connection.prepareStatement("DELETE FROM chunks WHERE sim_id = ?")) {
      delete.setString(1, simId);
      delete.executeUpdate();
    }
    return size;
  }

  private static void requireSimsExist(Connection connection, List<Chunk> chunks)
      throws SQLException {
    Set<String> simIds = new LinkedHashSet<>();
    chunks.forEach(chunk -> simIds.add(chunk.simId()));
    for (String simId : simIds) {
      SimRepository.requireExists(connection, simId);
    }
  }

  /** Iterates a sim's chunks by keyset pages: {@code seq >= next} each time. */
  private final class PagedChunks implements Iterator<Chunk> {
    private final String simId;
    private final Deque<Chunk> page = new ArrayDeque<>();
    private long nextSeq;
    private boolean exhausted;

    PagedChunks(String simId, long fromSeq) {
      this.simId = simId;
      this.nextSeq = Math.max(0, fromSeq);
    }

    @Override
    public boolean hasNext() {
      if (page.isEmpty() && !exhausted) {
        fetch();
      }
      return !page.isEmpty();
    }

    @Override
    public Chunk next() {
      if (!hasNext()) {
        throw new NoSuchElementException("no more chunks for sim " + simId);
      }
      return page.removeFirst();
    }

    private void fetch() {
      List<Chunk> fetched =
          database.read(connection -> read(connection, simId, nextSeq, PAGE_CHUNKS));
      if (fetched.isEmpty()) {
        exhausted = true;
        return;
      }
      page.addAll(fetched);
      nextSeq = fetched.get(fetched.size() - 1).seq() + 1;
    }
  }
}
