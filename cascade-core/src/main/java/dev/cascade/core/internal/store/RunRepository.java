package dev.cascade.core.internal.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code runs} table, read and written together with the run's sims. A run's state is never
 * stored: {@link Run#state()} derives it from the sims read here.
 */
public final class RunRepository {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String RUN_COLUMNS =
      "r.id AS run_id, r.trace_id AS run_trace_id, r.entries AS run_entries,"
          + " r.created_at AS run_created_at";

  private final Database database;

  public RunRepository(Database database) {
    this.database = Objects.requireNonNull(database, "database");
  }

  /**
   * Writes the run and all its sims in one transaction: either all of them are stored or none. The
   * sims must be {@code pending}, belong to the run, and be exactly replicas 0 to count - 1 of each
   * entry.
   *
   * @throws IllegalArgumentException when the sims do not match the run
   */
  public void insert(Run run) {
    database.write(
        connection -> {
          insert(connection, run);
          return null;
        });
  }

  /** {@link #insert(Run)} inside the caller's write transaction. */
  public void insert(Connection connection, Run run) throws SQLException {
    Objects.requireNonNull(run, "run");
    requireSimsMatchEntries(run);
    String entries = entriesJson(run.entries());
    try (PreparedStatement insertRun =
        connection.prepareStatement(
            "INSERT INTO runs (id, trace_id, entries, created_at) VALUES (?, ?, ?, ?)")) {
      insertRun.setString(1, run.id());
      insertRun.setString(2, run.traceId());
      insertRun.setString(3, entries);
      insertRun.setString(4, SqlTimes.text(run.createdAt()));
      insertRun.executeUpdate();
    }
    try (PreparedStatement insertSim =
        connection.prepareStatement(
            "INSERT INTO sims (id, run_id, gpu_config, replica, state, created_at,"
                + " kernels_total) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (Sim sim : run.sims()) {
        insertSim.setString(1, sim.id());
        insertSim.setString(2, run.id());
        insertSim.setString(3, sim.gpuConfig());
        insertSim.setInt(4, sim.replica());
        insertSim.setString(5, SimState.PENDING.wireName());
        insertSim.setString(6, SqlTimes.text(sim.createdAt()));
        insertSim.setInt(7, sim.progress().kernelsTotal());
        insertSim.addBatch();
      }
      insertSim.executeBatch();
    }
  }

  /** The run with its sims, read in one statement so they agree with each other. */
  public Optional<Run> find(String runId) {
    Objects.requireNonNull(runId, "runId");
    List<Run> runs =
        database.read(
            connection -> {
              try (PreparedStatement select =
                  connection.prepareStatement(
                      "SELECT "
                          + RUN_COLUMNS
                          + ", "
                          + SimRepository.SIM_COLUMNS
                          + " FROM runs r LEFT JOIN sims s ON s.run_id = r.id WHERE r.id = ?")) {
                select.setString(1, runId);
                return readRuns(select);
              }
            });
    return runs.stream().findFirst();
  }

  /** Every run, newest first, each with its sims. */
  public List<Run> list() {
    return list(Integer.MAX_VALUE);
  }

  /** The newest {@code limit} runs, newest first, each with its sims. */
  public List<Run> list(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be 1 or more; got " + limit);
    }
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + RUN_COLUMNS
                      + ", "
                      + SimRepository.SIM_COLUMNS
                      + " FROM (SELECT * FROM runs ORDER BY created_at DESC, id DESC LIMIT ?) r"
                      + " LEFT JOIN sims s ON s.run_id = r.id"
                      + " ORDER BY r.created_at DESC, r.id DESC")) {
            select.setInt(1, limit);
            return readRuns(select);
          }
        });
  }

  /** Groups joined rows into runs, in row order; sims in entry order, then by replica. */
  private static List<Run> readRuns(PreparedStatement select) throws SQLException {
    Map<String, RunRow> runs = new LinkedHashMap<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        RunRow run = runs.get(rows.getString("run_id"));
        if (run == null) {
          run = RunRow.read(rows);
          runs.put(run.id, run);
        }
        if (rows.getString("sim_id") != null) {
          run.sims.add(SimRepository.readSim(rows));
        }
      }
    }
    return runs.values().stream().map(RunRow::toRun).toList();
  }

  private static final class RunRow {
    final String id;
    final String traceId;
    final List<RunEntry> entries;
    final Instant createdAt;
    final List<Sim> sims = new ArrayList<>();

    private RunRow(String id, String traceId, List<RunEntry> entries, Instant createdAt) {
      this.id = id;
      this.traceId = traceId;
      this.entries = entries;
      this.createdAt = createdAt;
    }

    static RunRow read(ResultSet row) throws SQLException {
      return new RunRow(
          row.getString("run_id"),
          row.getString("run_trace_id"),
          entriesFromJson(row.getString("run_id"), row.getString("run_entries")),
          SqlTimes.instant(row.getString("run_created_at")));
    }

    Run toRun() {
      Map<String, Integer> entryOrder = new HashMap<>();
      for (int i = 0; i < entries.size(); i++) {
        entryOrder.putIfAbsent(entries.get(i).gpuConfig(), i);
      }
      sims.sort(
          Comparator.comparingInt((Sim sim) -> entryOrder.getOrDefault(sim.gpuConfig(), -1))
              .thenComparingInt(Sim::replica)
              .thenComparing(Sim::id));
      return new Run(id, traceId, entries, createdAt, sims);
    }
  }

  private static void requireSimsMatchEntries(Run run) {
    Set<String> expected = new HashSet<>();
    for (RunEntry entry : run.entries()) {
      for (int replica = 0; replica < entry.count(); replica++) {
        expected.add(entry.gpuConfig() + "#" + replica);
      }
    }
    Set<String> actual = new HashSet<>();
    for (Sim sim : run.sims()) {
      if (!sim.runId().equals(run.id())) {
        throw new IllegalArgumentException(
            "sim " + sim.id() + " belongs to run " + sim.runId() + ", not to run " + run.id());
      }
      if (sim.state() != SimState.PENDING) {
        throw new IllegalArgumentException(
            "a new run's sims start pending; sim " + sim.id() + " is " + sim.state().wireName());
      }
      actual.add(sim.gpuConfig() + "#" + sim.replica());
    }
    if (!actual.equals(expected) || run.sims().size() != expected.size()) {
      throw new IllegalArgumentException(
          "run "
              + run.id()
              + " needs one sim per replica of each entry ("
              + expected.size()
              + " sims); got "
              + run.sims().size()
              + " that do not match "
              + run.entries());
    }
  }

  /** Entries as a JSON array of {@code {"gpu_config": ..., "count": ...}}, in request order. */
  private static String entriesJson(List<RunEntry> entries) {
    ArrayNode array = JSON.createArrayNode();
    for (RunEntry entry : entries) {
      array.addObject().put("gpu_config", entry.gpuConfig()).put("count", entry.count());
    }
    try {
      return JSON.writeValueAsString(array);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write run entries as JSON: " + entries, e);
    }
  }

  private static List<RunEntry> entriesFromJson(String runId, String json) {
    try {
      List<RunEntry> entries = new ArrayList<>();
      for (JsonNode entry : JSON.readTree(json)) {
        entries.add(new RunEntry(entry.path("gpu_config").asText(), entry.path("count").asInt()));
      }
      return entries;
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "run " + runId + " has unreadable entries in the database: " + json, e);
    }
  }
}
