package dev.cascade.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code cascade.db} holds, read on a connection of the benchmark's own (WAL: it never blocks
 * the app's writer): the chunks stored per sim, and a probe of how many durable commits a second
 * this disk gives SQLite with Cascade's settings.
 */
final class StoredChunks {

  private StoredChunks() {}

  /** Per sim id, the seqs stored and their bytes as sent (before compression). */
  record Stored(BitSet seqs, long bytes) {}

  static Map<String, Stored> read(Path database) throws SQLException {
    Map<String, Stored> stored = new HashMap<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT sim_id, seq, coalesce(size, length(bytes)) FROM chunks")) {
      while (rows.next()) {
        String simId = rows.getString(1);
        long seq = rows.getLong(2);
        long bytes = rows.getLong(3);
        Stored before = stored.get(simId);
        BitSet seqs = before == null ? new BitSet() : before.seqs();
        seqs.set(Math.toIntExact(seq));
        stored.put(simId, new Stored(seqs, (before == null ? 0 : before.bytes()) + bytes));
      }
    }
    return stored;
  }

  /**
   * Durable commits a second in {@code dir} with Cascade's settings (WAL, {@code synchronous =
   * FULL}), each inserting {@code rowsPerCommit} rows of {@code rowBytes}, for about {@code
   * seconds}. Returns rows a second.
   */
  static double probeRowsPerSecond(Path dir, int rowsPerCommit, int rowBytes, double seconds)
      throws SQLException, IOException {
    Path file = dir.resolve("commit-probe-" + rowsPerCommit + ".db");
    try {
      try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
        try (Statement statement = connection.createStatement()) {
          statement.execute("PRAGMA journal_mode = WAL");
          statement.execute("PRAGMA synchronous = FULL");
          statement.execute("CREATE TABLE IF NOT EXISTS probe (n INTEGER, bytes BLOB)");
        }
        connection.setAutoCommit(false);
        byte[] row = new byte[rowBytes];
        long rows = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        try (PreparedStatement insert =
            connection.prepareStatement("INSERT INTO probe (n, bytes) VALUES (?, ?)")) {
          while (System.nanoTime() < end) {
            for (int i = 0; i < rowsPerCommit; i++) {
              insert.setLong(1, rows++);
              insert.setBytes(2, row);
              insert.executeUpdate();
            }
            connection.commit();
          }
        }
        return rows / ((System.nanoTime() - start) / 1e9);
      }
    } finally {
      for (String suffix : new String[] {"", "-wal", "-shm"}) {
        Files.deleteIfExists(Path.of(file + suffix));
      }
    }
  }
}
