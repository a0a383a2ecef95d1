package dev.cascade.core.internal.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.json.SamplingJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code runs} table, read and written together with the run's sims (through {@link
 * SimRepository}, which owns their table). A run's state is never stored: {@link Run#state()}
 * derives it from the sims read here.
 */
public final class RunRepository {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String RUN_COLUMNS =
      "r.id AS run_id, r.trace_id AS run_trace_id, r.entries AS run_entries,"
          + " r.created_at AS run_created_at, r.owner AS run_owner, r.priority AS run_priority";

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
            "INSERT INTO runs (id, trace_id, entries, created_at, owner, priority)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      insertRun.setString(1, run.id());
      insertRun.setString(2, run.traceId());
      insertRun.setString(3, entries);
      insertRun.setString(4, SqlTimes.text(run.createdAt()));
      insertRun.setString(5, run.owner());
      insertRun.setInt(6, run.priority());
      insertRun.executeUpdate();
    }
    SimRepository.insertPending(connection, run.id(), run.sims());
  }

  /** The run with its sims, read in one read transaction so they agree with each other. */
  public Optional<Run> find(String runId) {
    Objects.requireNonNull(runId, "runId");
    return database.readSnapshot(connection -> find(connection, runId));
  }

  /**
   * The run with its sims as the caller's write transaction sees it. A write that decides from what
   * it reads must read here: writes share commits ({@link GroupCommit}), so a read connection does
   * not yet see the writes committed with the one running now.
   */
  public Optional<Run> find(Connection connection, String runId) throws SQLException {
    Objects.requireNonNull(runId, "runId");
    try (PreparedStatement select =
        connection.prepareStatement("SELECT " + RUN_COLUMNS + " FROM runs r WHERE r.id = ?")) {
      select.setString(1, runId);
      return readRuns(connection, select).stream().findFirst();
    }
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
    return database.readSnapshot(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + RUN_COLUMNS
                      + " FROM runs r ORDER BY r.created_at DESC, r.id DESC LIMIT ?")) {
            select.setInt(1, limit);
            return readRuns(connection, select);
          }
        });
  }

  /**
   * Up to {@code limit} runs, newest first, each with its sims: of {@code traceId} and {@code
   * owner} when not null, and created before ({@code createdAt}, {@code id}) when {@code createdAt}
   * is not null (the last run of the page before).
   */
  public List<Run> page(String traceId, String owner, Instant createdAt, String id, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be 1 or more; got " + limit);
    }
    StringBuilder where = new StringBuilder(" WHERE 1 = 1");
    List<String> args = new ArrayList<>();
    if (traceId != null) {
      where.append(" AND r.trace_id = ?");
      args.add(traceId);
    }
    if (owner != null) {
      where.append(" AND r.owner = ?");
      args.add(owner);
    }
    if (createdAt != null) {
      where.append(" AND (r.created_at < ? OR (r.created_at = ? AND r.id < ?))");
      args.add(SqlTimes.text(createdAt));
      args.add(SqlTimes.text(createdAt));
      args.add(Objects.requireNonNull(id, "id"));
    }
    return database.readSnapshot(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + RUN_COLUMNS
                      + " FROM runs r"
                      + where
                      + " ORDER BY r.created_at DESC, r.id DESC LIMIT ?")) {
            for (int i = 0; i < args.size(); i++) {
              select.setString(i + 1, args.get(i));
            }
            select.setInt(args.size() + 1, limit);
            return readRuns(connection, select);
          }
        });
  }

  /** The newest {@code limit} runs of the trace, newest first, each with its sims. */
  public List<Run> findByTrace(String traceId, int limit) {
    Objects.requireNonNull(traceId, "traceId");
    return database.readSnapshot(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + RUN_COLUMNS
                      + " FROM runs r WHERE r.trace_id = ?"
                      + " ORDER BY r.created_at DESC, r.id DESC LIMIT ?")) {
            select.setString(1, traceId);
            select.setInt(2, limit);
            return readRuns(connection, select);
          }
        });
  }

  /** Each of {@code runIds} that exists, with its trace id. */
  public Map<String, String> traceIdsOf(Set<String> runIds) {
    if (runIds.isEmpty()) {
      return Map.of();
    }
    return database.readSnapshot(
        connection -> {
          Map<String, String> traceIds = new HashMap<>();
          List<String> ids = List.copyOf(runIds);
          for (int from = 0; from < ids.size(); from += 500) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + 500));
            try (PreparedStatement select =
                connection.prepareStatement(
                    "SELECT id, trace_id FROM runs WHERE id IN ("
                        + String.join(", ", java.util.Collections.nCopies(part.size(), "?"))
                        + ")")) {
              for (int i = 0; i < part.size(); i++) {
                select.setString(i + 1, part.get(i));
              }
              try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                  traceIds.put(rows.getString(1), rows.getString(2));
                }
              }
            }
          }
          return traceIds;
        });
  }

  /**
   * The runs {@code select} finds, in row order, each with its sims (entry order, then replica).
   */
  private static List<Run> readRuns(Connection connection, PreparedStatement select)
      throws SQLException {
    List<RunRow> runs = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        runs.add(RunRow.read(rows));
      }
    }
    Map<String, List<Sim>> sims =
        SimRepository.findByRuns(connection, runs.stream().map(run -> run.id).toList());
    return runs.stream().map(run -> run.toRun(sims.getOrDefault(run.id, List.of()))).toList();
  }

  private static final class RunRow {
    final String id;
    final String traceId;
    final List<RunEntry> entries;
    final Instant createdAt;
    final String owner;
    final int priority;

    private RunRow(
        String id,
        String traceId,
        List<RunEntry> entries,
        Instant createdAt,
        String owner,
        int priority) {
      this.id = id;
      this.traceId = traceId;
      this.entries = entries;
      this.createdAt = createdAt;
      this.owner = owner;
      this.priority = priority;
    }

    static RunRow read(ResultSet row) throws SQLException {
      return new RunRow(
          row.getString("run_id"),
          row.getString("run_trace_id"),
          entriesFromJson(row.getString("run_id"), row.getString("run_entries")),
          SqlTimes.instant(row.getString("run_created_at")),
          row.getString("run_owner"),
          row.getInt("run_priority"));
    }

    Run toRun(List<Sim> stored) {
      List<Sim> sims = new ArrayList<>(stored);
      Map<String, Integer> entryOrder = new HashMap<>();
      for (int i = 0; i < entries.size(); i++) {
        entryOrder.putIfAbsent(entries.get(i).name(), i);
      }
      sims.sort(
          Comparator.comparingInt((Sim sim) -> entryOrder.getOrDefault(sim.gpuConfig(), -1))
              .thenComparingInt(Sim::replica)
              .thenComparing(Sim::id));
      return new Run(id, traceId, entries, createdAt, sims, owner, priority);
    }
  }

  private static void requireSimsMatchEntries(Run run) {
    Set<String> expected = new HashSet<>();
    for (RunEntry entry : run.entries()) {
      for (int replica = 0; replica < entry.count(); replica++) {
        expected.add(entry.name() + "#" + replica);
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
      if (sim.attempt() != 1) {
        throw new IllegalArgumentException(
            "a new run's sims are first attempts; sim "
                + sim.id()
                + " is attempt "
                + sim.attempt());
      }
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

  /**
   * Entries as a JSON array of {@code {"gpu_config": ..., "count": ...}} (with {@code
   * "time_limit_s"}, {@code "kernels"}, {@code "context"}, {@code "sampling"}, {@code "params"} and
   * {@code "label"} when the entry has them), in request order. A run's entries are stored
   * expanded: a sweep is stored as its variants.
   */
  private static String entriesJson(List<RunEntry> entries) {
    ArrayNode array = JSON.createArrayNode();
    for (RunEntry entry : entries) {
      var object =
          array.addObject().put("gpu_config", entry.gpuConfig()).put("count", entry.count());
      if (entry.kernels() != null) {
        object.put("kernels", entry.kernels());
      }
      if (entry.timeLimit() != null) {
        object.put("time_limit_s", entry.timeLimit().toSeconds());
      }
      if (entry.sampling() != null) {
        object.set("sampling", JSON.valueToTree(SamplingJson.writeSampling(entry.sampling())));
      }
      if (entry.context() != null) {
        object.put("context", entry.context());
      }
      if (!entry.params().isEmpty()) {
        var params = object.putObject("params");
        entry.params().forEach(params::put);
      }
      if (entry.label() != null) {
        object.put("label", entry.label());
      }
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
        JsonNode limit = entry.path("time_limit_s");
        Map<String, String> params = new java.util.LinkedHashMap<>();
        entry
            .path("params")
            .properties()
            .forEach(p -> params.put(p.getKey(), p.getValue().asText()));
        entries.add(
            new RunEntry(
                entry.path("gpu_config").asText(),
                entry.path("count").asInt(),
                entry.hasNonNull("kernels") ? entry.get("kernels").asText() : null,
                limit.isNumber() ? java.time.Duration.ofSeconds(limit.asLong()) : null,
                entry.hasNonNull("context") ? entry.get("context").asText() : null,
                SamplingJson.readSampling(entry.get("sampling")),
                params,
                Map.of(),
                entry.hasNonNull("label") ? entry.get("label").asText() : null));
      }
      return entries;
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "run " + runId + " has unreadable entries in the database: " + json, e);
    }
  }
}
