package dev.cascade.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code trace_hardware} table: per trace, the Nsight Compute CSV given to the API, whole. A
 * new one replaces the old.
 */
public final class HardwareRepository {

  /** A stored CSV and the name it was given ({@code ncu.csv}). */
  public record Stored(String traceId, String source, String csv) {
    public Stored {
      Objects.requireNonNull(traceId, "traceId");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(csv, "csv");
    }
  }

  private final Database database;
  private final Clock clock;

  public HardwareRepository(Database database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Stores (or replaces) the trace's CSV; committed when this returns. The trace must exist: the
   * foreign key refuses the CSV of an unknown trace.
   */
  public void put(Stored stored) {
    database.write(
        connection -> {
          try (PreparedStatement upsert =
              connection.prepareStatement(
                  "INSERT INTO trace_hardware (trace_id, source, csv, received_at)"
                      + " VALUES (?, ?, ?, ?) ON CONFLICT (trace_id) DO UPDATE SET"
                      + " source = excluded.source, csv = excluded.csv,"
                      + " received_at = excluded.received_at")) {
            upsert.setString(1, stored.traceId());
            upsert.setString(2, stored.source());
            upsert.setString(3, stored.csv());
            upsert.setString(4, SqlTimes.text(clock.instant()));
            upsert.executeUpdate();
          }
          return null;
        });
  }

  /** The trace's CSV given to the API, if any. */
  public Optional<Stored> find(String traceId) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT source, csv FROM trace_hardware WHERE trace_id = ?")) {
            select.setString(1, traceId);
            try (ResultSet row = select.executeQuery()) {
              return row.next()
                  ? Optional.of(new Stored(traceId, row.getString(1), row.getString(2)))
                  : Optional.empty();
            }
          }
        });
  }
}
