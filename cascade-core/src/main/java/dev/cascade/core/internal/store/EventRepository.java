package dev.cascade.core.internal.store;

import dev.cascade.core.SimEvent;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code events} table: every change of a sim, numbered in order. Events are appended inside
 * the write transaction of the change they describe and read back by id, so a reader resumes from
 * any id it saw. Waiting for new events is {@code EventLog}'s business, not this table's.
 */
public final class EventRepository {

  /**
   * Event data longer than this many bytes is stored as a zstd frame (a BLOB): a {@code log}
   * event's lines or a {@code sim} event's row. Shorter data, and every event stored before
   * compression, is JSON text; readers take both (JSON starts with '{', never zstd's magic).
   */
  private static final int COMPRESS_ABOVE = 512;

  private final Database database;

  public EventRepository(Database database) {
    this.database = Objects.requireNonNull(database, "database");
  }

  /** Appends an event in the caller's write transaction and returns it with its id. */
  public SimEvent insert(
      Connection connection,
      String runId,
      String simId,
      SimEvent.Kind kind,
      Instant at,
      String data)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO events (run_id, sim_id, kind, data, created_at) VALUES (?, ?, ?, ?, ?)",
            Statement.RETURN_GENERATED_KEYS)) {
      insert.setString(1, runId);
      insert.setString(2, simId);
      insert.setString(3, kind.wireName());
      byte[] json = data.getBytes(StandardCharsets.UTF_8);
      if (json.length > COMPRESS_ABOVE) {
        insert.setBytes(4, Compression.compress(json, Compression.CHUNK_LEVEL));
      } else {
        insert.setString(4, data);
      }
      insert.setString(5, SqlTimes.text(at));
      insert.executeUpdate();
      try (ResultSet keys = insert.getGeneratedKeys()) {
        keys.next();
        return new SimEvent(keys.getLong(1), runId, simId, kind, at, data);
      }
    }
  }

  /** An event's data as stored: JSON text, or a zstd frame of it. */
  private static String data(byte[] stored) {
    if (stored == null) {
      return null;
    }
    byte[] json = Compression.isFrame(stored) ? Compression.decompress(stored) : stored;
    return new String(json, StandardCharsets.UTF_8);
  }

  /** The newest event id; 0 when there are none. */
  public long latestId() {
    return database.read(
        connection -> {
          try (Statement statement = connection.createStatement();
              ResultSet rows = statement.executeQuery("SELECT coalesce(max(id), 0) FROM events")) {
            rows.next();
            return rows.getLong(1);
          }
        });
  }

  /**
   * Up to {@code limit} events with ids above {@code afterId}, in id order: those of {@code runId},
   * or of every run when it is null.
   */
  public List<SimEvent> after(String runId, long afterId, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be 1 or more; got " + limit);
    }
    return database.read(
        connection -> {
          String sql =
              "SELECT id, run_id, sim_id, kind, data, created_at FROM events WHERE id > ?"
                  + (runId == null ? "" : " AND run_id = ?")
                  + " ORDER BY id LIMIT "
                  + limit;
          List<SimEvent> events = new ArrayList<>();
          try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setLong(1, afterId);
            if (runId != null) {
              select.setString(2, runId);
            }
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                events.add(
                    new SimEvent(
                        rows.getLong(1),
                        rows.getString(2),
                        rows.getString(3),
                        SimEvent.Kind.fromWireName(rows.getString(4)),
                        SqlTimes.instant(rows.getString(6)),
                        data(rows.getBytes(5))));
              }
            }
          }
          return events;
        });
  }

  /**
   * The events of {@code kind} of run {@code runId}, oldest first: a run's {@code action}s are a
   * handful, read whole for the run's view.
   */
  public List<SimEvent> ofKind(String runId, SimEvent.Kind kind) {
    return database.read(
        connection -> {
          List<SimEvent> events = new ArrayList<>();
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT id, run_id, sim_id, kind, data, created_at FROM events"
                      + " WHERE run_id = ? AND kind = ? ORDER BY id")) {
            select.setString(1, runId);
            select.setString(2, kind.wireName());
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                events.add(
                    new SimEvent(
                        rows.getLong(1),
                        rows.getString(2),
                        rows.getString(3),
                        kind,
                        SqlTimes.instant(rows.getString(6)),
                        rows.getString(5)));
              }
            }
          }
          return events;
        });
  }
}
