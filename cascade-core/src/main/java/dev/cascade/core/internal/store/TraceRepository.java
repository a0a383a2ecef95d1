package dev.cascade.core.internal.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code traces} table: one row per trace the store has seen, written on every change of state
 * or facts, so states survive a restart. Traced layers and per-kernel facts are JSON arrays.
 */
public final class TraceRepository {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
  private static final TypeReference<List<TraceKernel>> KERNELS = new TypeReference<>() {};

  private static final String COLUMNS =
      "id, state, reason, trace_gpu_arch, suggested_sim_config, model_name, traced_layers,"
          + " kernel_count, kernels, size_bytes, sample, created_at, updated_at";

  private final Database database;

  public TraceRepository(Database database) {
    this.database = database;
  }

  public Optional<Trace> find(String id) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement("SELECT " + COLUMNS + " FROM traces WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? Optional.of(trace(row)) : Optional.empty();
            }
          }
        });
  }

  /** Every trace, oldest first. */
  public List<Trace> list() {
    return database.read(
        connection -> {
          try (PreparedStatement select =
                  connection.prepareStatement(
                      "SELECT " + COLUMNS + " FROM traces ORDER BY created_at, id");
              ResultSet rows = select.executeQuery()) {
            List<Trace> traces = new ArrayList<>();
            while (rows.next()) {
              traces.add(trace(rows));
            }
            return traces;
          }
        });
  }

  /** Inserts the trace, or replaces the row with its id. */
  public void save(Trace trace) {
    database.write(
        connection -> {
          save(connection, trace);
          return null;
        });
  }

  public void delete(String id) {
    database.write(
        connection -> {
          try (PreparedStatement delete =
              connection.prepareStatement("DELETE FROM traces WHERE id = ?")) {
            delete.setString(1, id);
            return delete.executeUpdate();
          }
        });
  }

  private static void save(Connection connection, Trace trace) throws SQLException {
    try (PreparedStatement upsert =
        connection.prepareStatement(
            "INSERT INTO traces ("
                + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (id) DO UPDATE SET state = excluded.state,"
                + " reason = excluded.reason, trace_gpu_arch = excluded.trace_gpu_arch,"
                + " suggested_sim_config = excluded.suggested_sim_config,"
                + " model_name = excluded.model_name, traced_layers = excluded.traced_layers,"
                + " kernel_count = excluded.kernel_count, kernels = excluded.kernels,"
                + " size_bytes = excluded.size_bytes, sample = excluded.sample,"
                + " created_at = excluded.created_at, updated_at = excluded.updated_at")) {
      upsert.setString(1, trace.id());
      upsert.setString(2, trace.state().wireName());
      upsert.setString(3, trace.reason());
      upsert.setString(4, trace.traceGpuArch());
      upsert.setString(5, trace.suggestedSimConfig());
      upsert.setString(6, trace.modelName());
      upsert.setString(7, json(trace.tracedLayers()));
      upsert.setInt(8, trace.kernelCount());
      upsert.setString(9, json(trace.kernels()));
      upsert.setLong(10, trace.sizeBytes());
      upsert.setInt(11, trace.sample() ? 1 : 0);
      upsert.setString(12, SqlTimes.text(trace.createdAt()));
      upsert.setString(13, SqlTimes.text(trace.updatedAt()));
      upsert.executeUpdate();
    }
  }

  private static Trace trace(ResultSet row) throws SQLException {
    String id = row.getString("id");
    return new Trace(
        id,
        TraceState.fromWireName(row.getString("state")),
        row.getString("reason"),
        row.getString("trace_gpu_arch"),
        row.getString("suggested_sim_config"),
        row.getString("model_name"),
        parse(id, "traced_layers", row.getString("traced_layers"), STRINGS),
        row.getInt("kernel_count"),
        parse(id, "kernels", row.getString("kernels"), KERNELS),
        row.getLong("size_bytes"),
        row.getInt("sample") != 0,
        SqlTimes.instant(row.getString("created_at")),
        SqlTimes.instant(row.getString("updated_at")));
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value + " as JSON", e);
    }
  }

  private static <T> T parse(String id, String column, String text, TypeReference<T> type) {
    try {
      return JSON.readValue(text, type);
    } catch (JsonProcessingException e) {
      throw new CascadeException(
          ErrorCode.INTERNAL,
          "the traces row \""
              + id
              + "\" has unreadable JSON in "
              + column
              + ": "
              + e.getOriginalMessage(),
          null,
          e);
    }
  }
}
