package dev.cascade.core.internal.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cascade.core.KernelResult;
import dev.cascade.core.spi.FinishedKernel;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code sim_kernels} table: one row per statistics block a sim printed, at its position in the
 * log, with every numeric statistic of the block as a JSON object.
 */
public final class KernelRepository {

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * A kernel's headline numbers without its statistics, for comparing replicas.
   *
   * @param simId the sim that ran it
   */
  public record Headline(
      String simId, int position, String name, int instance, long cycles, long instructions) {}

  /** Sims whose kernels {@link #headlines} reads per query: well under SQLite's variable limit. */
  private static final int SIMS_PER_QUERY = 500;

  private final Database database;

  public KernelRepository(Database database) {
    this.database = Objects.requireNonNull(database, "database");
  }

  /**
   * Stores a finished kernel at {@code position} in the caller's transaction, unless the sim
   * already has a kernel there (a re-parse is harmless).
   *
   * @return true when the row was new
   */
  public boolean insert(Connection connection, String simId, int position, FinishedKernel kernel)
      throws SQLException {
    return insert(connection, simId, position, kernel, storedStats(kernel));
  }

  /**
   * {@link #insert(Connection, String, int, FinishedKernel)} with the statistics already written as
   * {@link #storedStats}: built before the write, so the single writer's turn holds only the
   * insert.
   */
  public boolean insert(
      Connection connection, String simId, int position, FinishedKernel kernel, byte[] storedStats)
      throws SQLException {
    return insert(connection, simId, position, kernel, storedStats, null, null);
  }

  /**
   * {@link #insert(Connection, String, int, FinishedKernel, byte[])} with when the kernel finished
   * on the wall clock and how long it took ; either may be null when unknown.
   */
  public boolean insert(
      Connection connection,
      String simId,
      int position,
      FinishedKernel kernel,
      byte[] storedStats,
      Instant finishedAt,
      Duration wallTime)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO sim_kernels (sim_id, position, name, uid, instance, cycles,"
                + " instructions, ipc, stats, finished_at, wall_ms)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (sim_id, position) DO NOTHING")) {
      insert.setString(1, simId);
      insert.setInt(2, position);
      insert.setString(3, kernel.name());
      insert.setLong(4, kernel.uid());
      insert.setInt(5, kernel.instance());
      insert.setLong(6, kernel.cycles());
      insert.setLong(7, kernel.instructions());
      insert.setDouble(8, kernel.ipc());
      insert.setBytes(9, storedStats);
      insert.setString(10, SqlTimes.text(finishedAt));
      if (wallTime == null) {
        insert.setNull(11, java.sql.Types.INTEGER);
      } else {
        insert.setLong(11, wallTime.toMillis());
      }
      return insert.executeUpdate() == 1;
    }
  }

  /**
   * Copies every kernel of sim {@code fromId} to sim {@code toId} in the caller's write
   * transaction: a reused sim's results are the earlier sim's.
   */
  public static void copy(Connection connection, String fromId, String toId) throws SQLException {
    try (PreparedStatement copy =
        connection.prepareStatement(
            "INSERT INTO sim_kernels (sim_id, position, name, uid, instance, cycles, instructions,"
                + " ipc, stats, finished_at, wall_ms) SELECT ?, position, name, uid, instance,"
                + " cycles, instructions, ipc, stats, finished_at, wall_ms FROM sim_kernels"
                + " WHERE sim_id = ?")) {
      copy.setString(1, toId);
      copy.setString(2, fromId);
      copy.executeUpdate();
    }
  }

  /** The bytes of the kernels' statistics of the sims {@code simIds}, as stored. */
  public long storedStatsBytes(List<String> simIds) {
    return database.read(
        connection -> {
          long bytes = 0;
          for (int from = 0; from < simIds.size(); from += SIMS_PER_QUERY) {
            List<String> batch =
                simIds.subList(from, Math.min(simIds.size(), from + SIMS_PER_QUERY));
            try (PreparedStatement select =
                connection.prepareStatement(
                    "SELECT coalesce(sum(length(CAST(stats AS BLOB))), 0) FROM sim_kernels"
                        + " WHERE sim_id IN ("
                        + String.join(", ", Collections.nCopies(batch.size(), "?"))
                        + ")")) {
              for (int i = 0; i < batch.size(); i++) {
                select.setString(i + 1, batch.get(i));
              }
              try (ResultSet row = select.executeQuery()) {
                row.next();
                bytes += row.getLong(1);
              }
            }
          }
          return bytes;
        });
  }

  /**
   * Per-kernel reuse: copies the kernels at trace {@code positions} (from 1, ascending) of the
   * whole-trace sim {@code fromId} to the windowed sim {@code toId}, numbered as a sim of that
   * window prints them (log positions from 0, launch uids from 1, instances counted per name within
   * the window). Writes nothing and returns false when {@code fromId} lacks one of them.
   */
  public static boolean copyWindow(
      Connection connection, String fromId, String toId, List<Integer> positions)
      throws SQLException {
    Map<Integer, String> names = new HashMap<>();
    try (PreparedStatement select =
        connection.prepareStatement("SELECT position, name FROM sim_kernels WHERE sim_id = ?")) {
      select.setString(1, fromId);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          names.put(rows.getInt(1), rows.getString(2));
        }
      }
    }
    for (int position : positions) {
      if (!names.containsKey(position - 1)) {
        return false;
      }
    }
    Map<String, Integer> instances = new HashMap<>();
    try (PreparedStatement copy =
        connection.prepareStatement(
            "INSERT INTO sim_kernels (sim_id, position, name, uid, instance, cycles, instructions,"
                + " ipc, stats, finished_at, wall_ms) SELECT ?, ?, name, ?, ?, cycles,"
                + " instructions, ipc, stats, finished_at, wall_ms"
                + " FROM sim_kernels WHERE sim_id = ? AND position = ?")) {
      for (int i = 0; i < positions.size(); i++) {
        int from = positions.get(i) - 1;
        int instance = instances.merge(names.get(from), 1, Integer::sum) - 1;
        copy.setString(1, toId);
        copy.setInt(2, i);
        copy.setLong(3, i + 1L);
        copy.setInt(4, instance);
        copy.setString(5, fromId);
        copy.setInt(6, from);
        copy.addBatch();
      }
      copy.executeBatch();
    }
    return true;
  }

  /** Every kernel of the sim, with its statistics, in log order. */
  public List<KernelResult> read(Connection connection, String simId) throws SQLException {
    List<KernelResult> kernels = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT position, name, uid, instance, cycles, instructions, ipc, stats,"
                + " finished_at, wall_ms FROM sim_kernels WHERE sim_id = ? ORDER BY position")) {
      select.setString(1, simId);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          long wallMillis = rows.getLong(10);
          Duration wallTime = rows.wasNull() ? null : Duration.ofMillis(wallMillis);
          kernels.add(
              new KernelResult(
                  rows.getInt(1),
                  rows.getString(2),
                  rows.getLong(3),
                  rows.getInt(4),
                  rows.getLong(5),
                  rows.getLong(6),
                  rows.getDouble(7),
                  statsFromJson(statsJsonBytes(rows, 8)),
                  SqlTimes.instant(rows.getString(9)),
                  wallTime));
        }
      }
    }
    return kernels;
  }

  /**
   * When the sim's kernel at {@code position} finished on the wall clock; null when it is not
   * stored or its time is not known (stored before kernels were timed).
   */
  public Instant finishedAt(String simId, int position) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT finished_at FROM sim_kernels WHERE sim_id = ? AND position = ?")) {
            select.setString(1, simId);
            select.setInt(2, position);
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? SqlTimes.instant(row.getString(1)) : null;
            }
          }
        });
  }

  /**
   * The headline numbers of every kernel of the sims {@code simIds} (a run's sims), by sim id, then
   * in log order.
   */
  public List<Headline> headlines(Collection<String> simIds) {
    List<String> sorted = simIds.stream().distinct().sorted().toList();
    List<Headline> kernels = new ArrayList<>();
    for (int from = 0; from < sorted.size(); from += SIMS_PER_QUERY) {
      List<String> batch = sorted.subList(from, Math.min(sorted.size(), from + SIMS_PER_QUERY));
      kernels.addAll(database.read(connection -> headlines(connection, batch)));
    }
    return kernels;
  }

  private static List<Headline> headlines(Connection connection, List<String> simIds)
      throws SQLException {
    String placeholders = String.join(", ", Collections.nCopies(simIds.size(), "?"));
    List<Headline> kernels = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT sim_id, position, name, instance, cycles, instructions FROM sim_kernels"
                + " WHERE sim_id IN ("
                + placeholders
                + ") ORDER BY sim_id, position")) {
      for (int i = 0; i < simIds.size(); i++) {
        select.setString(i + 1, simIds.get(i));
      }
      // The replicas of a run mostly have the same kernel at each position, and a sim's rows come
      // together: one String per distinct name and sim, so callers that key maps by them hash
      // each once (String caches its hash), not once per row.
      List<String> nameAt = new ArrayList<>();
      String simId = null;
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          String rowSim = rows.getString(1);
          simId = rowSim.equals(simId) ? simId : rowSim;
          int position = rows.getInt(2);
          String name = rows.getString(3);
          if (position < nameAt.size() && name.equals(nameAt.get(position))) {
            name = nameAt.get(position);
          } else if (position < nameAt.size()) {
            nameAt.set(position, name);
          } else if (position == nameAt.size()) {
            nameAt.add(name);
          }
          kernels.add(
              new Headline(
                  simId, position, name, rows.getInt(4), rows.getLong(5), rows.getLong(6)));
        }
      }
    }
    return kernels;
  }

  /**
   * Some statistics of every kernel of the sims {@code simIds}: per sim, per position, the values
   * of {@code keys} the kernel's block had (a key it lacked is absent), plus {@code keysOfFirst}:
   * every key of the first kernel read, for naming what a request could have meant.
   */
  public Statistics statistics(Collection<String> simIds, Set<String> keys) {
    List<String> sorted = simIds.stream().distinct().sorted().toList();
    Map<String, Map<Integer, Map<String, Double>>> bySim = new HashMap<>();
    List<String> keysOfFirst = new ArrayList<>();
    for (int from = 0; from < sorted.size(); from += SIMS_PER_QUERY) {
      List<String> batch = sorted.subList(from, Math.min(sorted.size(), from + SIMS_PER_QUERY));
      database.read(
          connection -> {
            statistics(connection, batch, keys, bySim, keysOfFirst);
            return null;
          });
    }
    return new Statistics(bySim, keysOfFirst);
  }

  /**
   * What {@link #statistics} read.
   *
   * @param bySim per sim id, per kernel position, the wanted statistics the block had
   * @param keysOfFirst every statistic key of the first kernel read, in log order
   */
  public record Statistics(
      Map<String, Map<Integer, Map<String, Double>>> bySim, List<String> keysOfFirst) {}

  private static void statistics(
      Connection connection,
      List<String> simIds,
      Set<String> keys,
      Map<String, Map<Integer, Map<String, Double>>> bySim,
      List<String> keysOfFirst)
      throws SQLException {
    String placeholders = String.join(", ", Collections.nCopies(simIds.size(), "?"));
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT sim_id, position, stats FROM sim_kernels WHERE sim_id IN ("
                + placeholders
                + ") ORDER BY sim_id, position")) {
      for (int i = 0; i < simIds.size(); i++) {
        select.setString(i + 1, simIds.get(i));
      }
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          Map<String, Double> wanted =
              wantedStats(
                  statsJsonBytes(rows, 3), keys, keysOfFirst.isEmpty() ? keysOfFirst : null);
          bySim
              .computeIfAbsent(rows.getString(1), id -> new HashMap<>())
              .put(rows.getInt(2), wanted);
        }
      }
    }
  }

  /**
   * The values of {@code keys} in a kernel's statistics JSON, read as it streams by: a block's
   * other ~1,500 values are passed over, not boxed. With {@code allKeys}, every key is added to it.
   */
  private static Map<String, Double> wantedStats(
      byte[] json, Set<String> keys, List<String> allKeys) {
    Map<String, Double> wanted = new HashMap<>();
    if (json == null) {
      return wanted;
    }
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return wanted;
      }
      for (JsonToken token = parser.nextToken();
          token == JsonToken.FIELD_NAME;
          token = parser.nextToken()) {
        String key = parser.currentName();
        JsonToken value = parser.nextToken();
        if (allKeys != null) {
          allKeys.add(key);
        }
        if ((value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT)
            && keys.contains(key)) {
          wanted.put(key, parser.getDoubleValue());
        } else {
          parser.skipChildren();
        }
      }
    } catch (IOException e) {
      // A damaged column gives the values read so far, as statsFromJson does.
    }
    return wanted;
  }

  /**
   * The block's statistics as they are stored: {@link #statsJson} compressed as one zstd frame
   * (about a tenth of the JSON's size for an Accel-Sim block of ~1,500 values).
   */
  public static byte[] storedStats(FinishedKernel kernel) {
    return Compression.compress(
        statsJson(kernel).getBytes(StandardCharsets.UTF_8), Compression.STATS_LEVEL);
  }

  /**
   * A kernel's statistics JSON from the {@code stats} column at {@code column}: a zstd frame (as
   * {@link #storedStats} writes) or, in rows stored before compression, the JSON text itself; null
   * when the column is null or its frame is damaged (the kernel then shows no statistics).
   */
  private static byte[] statsJsonBytes(ResultSet rows, int column) throws SQLException {
    byte[] stored = rows.getBytes(column);
    if (!Compression.isFrame(stored)) {
      return stored; // JSON text: an object starts with '{', never with zstd's magic number
    }
    try {
      return Compression.decompress(stored);
    } catch (IllegalStateException e) {
      return null;
    }
  }

  /** The block's statistics as one JSON object, in log order, written without boxing. */
  public static String statsJson(FinishedKernel kernel) {
    StringWriter out = new StringWriter(32 * kernel.values().size() + 2);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      kernel.forEachValue(
          new FinishedKernel.ValueVisitor() {
            @Override
            public void integer(String key, long value) {
              try {
                json.writeNumberField(key, value);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }

            @Override
            public void decimal(String key, double value) {
              try {
                json.writeNumberField(key, value);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          });
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /**
   * The statistics in {@code json}: {@link Long} for integers, {@link Double} for decimals, in
   * order; what cannot be read is left out rather than failing the read of the kernel.
   */
  static Map<String, Number> statsFromJson(byte[] json) {
    Map<String, Number> stats = new LinkedHashMap<>();
    if (json == null) {
      return stats;
    }
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return stats;
      }
      for (JsonToken token = parser.nextToken();
          token == JsonToken.FIELD_NAME;
          token = parser.nextToken()) {
        String key = parser.currentName();
        JsonToken value = parser.nextToken();
        if (value == JsonToken.VALUE_NUMBER_INT
            && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
          stats.put(key, parser.getLongValue());
        } else if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
          stats.put(key, parser.getDoubleValue());
        } else {
          parser.skipChildren();
        }
      }
    } catch (IOException e) {
      // A damaged column shows the statistics read so far rather than failing every read.
    }
    return stats;
  }
}
