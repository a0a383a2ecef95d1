package dev.cascade.core.internal.store;

import dev.cascade.accelsim.stats.LogBuilds;
import dev.cascade.core.CascadeException;
import dev.cascade.core.FailureClass;
import dev.cascade.core.Provenance;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.SimStateMachine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code sims} table, and the only class that reads or writes it. Sims are inserted with their
 * run ({@link RunRepository#insert} calls {@link #insertPending}); here they move between states,
 * only along {@link SimStateMachine#SIM_TRANSITIONS}, and collect what the launcher, the heartbeats
 * and the parse of their output ({@link #recordParse}) tell about them.
 */
public final class SimRepository {

  private static final Logger log = LoggerFactory.getLogger(SimRepository.class);

  /** Runs whose sims {@link #findByRuns} reads per query: well under SQLite's variable limit. */
  private static final int RUNS_PER_QUERY = 500;

  private final Database database;
  private final Clock clock;

  public SimRepository(Database database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public Optional<Sim> find(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(connection -> find(connection, simId));
  }

  /**
   * Every sim in one of {@code states}, oldest first; what a restart needs to relaunch the {@code
   * pending} sims and watch the unfinished ones.
   */
  public List<Sim> findInStates(SimState... states) {
    if (states.length == 0) {
      throw new IllegalArgumentException("name at least one sim state to look for; got none");
    }
    Set<SimState> wanted = EnumSet.copyOf(Arrays.asList(states));
    String placeholders = wanted.stream().map(state -> "?").collect(Collectors.joining(", "));
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + SimRows.COLUMNS
                      + " FROM sims s WHERE s.state IN ("
                      + placeholders
                      + ") ORDER BY s.id")) {
            int index = 1;
            for (SimState state : wanted) {
              select.setString(index++, state.wireName());
            }
            List<Sim> sims = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                sims.add(SimRows.read(rows));
              }
            }
            return sims;
          }
        });
  }

  /**
   * The sims to try again after an out-of-memory kill, in the caller's write transaction: each
   * config and replica's latest attempt, failed as {@code out_of_memory}, that has had fewer than
   * {@code attempts} attempts, in a run none of whose sims was cancelled (a cancelled run is not
   * started again by itself). Oldest first.
   */
  public List<Sim> outOfMemoryToRetry(Connection connection, int attempts) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT "
                + SimRows.COLUMNS
                + " FROM sims s WHERE s.state = 'failed' AND s.failure_class = 'out_of_memory'"
                + " AND s.attempt < ?"
                + " AND NOT EXISTS (SELECT 1 FROM sims n WHERE n.run_id = s.run_id"
                + " AND n.gpu_config = s.gpu_config AND n.replica = s.replica"
                + " AND n.attempt > s.attempt)"
                + " AND NOT EXISTS (SELECT 1 FROM sims c WHERE c.run_id = s.run_id"
                + " AND c.state = 'cancelled')"
                + " ORDER BY s.id")) {
      select.setInt(1, attempts);
      List<Sim> sims = new ArrayList<>();
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          sims.add(SimRows.read(rows));
        }
      }
      return sims;
    }
  }

  /**
   * The largest peak memory measured of each run's sims on each config: {@code run id} to {@code
   * gpu config} to bytes. With each run's trace ({@code RunRepository#traceIdsOf}), what the local
   * queue's predictions start from.
   */
  public Map<String, Map<String, Long>> peakMemoryByRunAndConfig() {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT run_id, gpu_config, max(peak_memory_bytes) FROM sims"
                      + " WHERE peak_memory_bytes IS NOT NULL GROUP BY run_id, gpu_config")) {
            Map<String, Map<String, Long>> peaks = new java.util.HashMap<>();
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                peaks
                    .computeIfAbsent(rows.getString(1), run -> new java.util.HashMap<>())
                    .put(rows.getString(2), rows.getLong(3));
              }
            }
            return peaks;
          }
        });
  }

  /** Moves the sim to {@code to} from whatever state it is in, when that move is allowed. */
  public boolean transition(String simId, SimState to) {
    return move(simId, null, to, Outcome.NONE);
  }

  /** {@link #transition(String, SimState)}, storing {@code outcome} with the move. */
  public boolean transition(String simId, SimState to, Outcome outcome) {
    return move(simId, null, to, outcome);
  }

  /**
   * Moves the sim from {@code expectedFrom} to {@code to}: a compare-and-set on the state read in
   * the same write transaction. Nothing changes when the sim is in another state or when {@link
   * SimStateMachine#allows} refuses the move; such a move is logged at debug and ignored. Moving to
   * a finished state stamps {@code finished_at}.
   *
   * @return true when the sim moved
   * @throws CascadeException {@code not_found} when there is no such sim
   */
  public boolean transition(String simId, SimState expectedFrom, SimState to, Outcome outcome) {
    return move(simId, Objects.requireNonNull(expectedFrom, "expectedFrom"), to, outcome);
  }

  /**
   * Stores what launching the sim returned: the launcher's name, its {@code launcher_ref}, and when
   * the launch call was made. The state is not touched: a heartbeat may already have moved it.
   */
  public void recordLaunch(
      String simId, String launcherName, String launcherRef, Instant launchedAt) {
    Objects.requireNonNull(launcherName, "launcherName");
    Objects.requireNonNull(launcherRef, "launcherRef");
    Objects.requireNonNull(launchedAt, "launchedAt");
    update(
        simId,
        "UPDATE sims SET launcher_name = ?, launcher_ref = ?, launched_at = ? WHERE id = ?",
        launcherName,
        launcherRef,
        SqlTimes.text(launchedAt));
  }

  /**
   * Replaces the error of a failed sim with a fuller one (the launcher's reason its task ended in
   * front of what the sim itself reported), and its failure class with the one the fuller error
   * tells. Failed is final, so nothing else moves it meanwhile.
   */
  public void amendError(String simId, String error, FailureClass failureClass) {
    update(
        simId,
        "UPDATE sims SET error = ?, failure_class = ? WHERE state = 'failed' AND id = ?",
        Objects.requireNonNull(error, "error"),
        failureClass.wireName());
  }

  /**
   * Raises the sim's stored peak memory to {@code peakBytes} in the caller's write transaction; a
   * lower figure (an earlier sample arriving late) changes nothing.
   *
   * @return true when the stored peak changed
   */
  public boolean recordPeakMemory(Connection connection, String simId, long peakBytes)
      throws SQLException {
    if (peakBytes < 0) {
      throw new IllegalArgumentException("peakBytes cannot be negative; got " + peakBytes);
    }
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET peak_memory_bytes = ? WHERE id = ?"
                + " AND (peak_memory_bytes IS NULL OR peak_memory_bytes < ?)")) {
      update.setLong(1, peakBytes);
      update.setString(2, simId);
      update.setLong(3, peakBytes);
      return update.executeUpdate() == 1;
    }
  }

  /**
   * Stamps the start of a launch call in the caller's write transaction, so silence is measured
   * even if the call never returns: for a sim still {@code pending}, or one left {@code launching}
   * without a launcher ref by an earlier process whose launch call never returned (a relaunch).
   *
   * @return false when the sim is neither, and must not be launched
   */
  public boolean recordLaunchStarted(Connection connection, String simId, Instant startedAt)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET launched_at = ? WHERE id = ? AND (state = 'pending'"
                + " OR (state = 'launching' AND launcher_ref IS NULL))")) {
      update.setString(1, SqlTimes.text(startedAt));
      update.setString(2, simId);
      return update.executeUpdate() == 1;
    }
  }

  /**
   * Stamps a heartbeat now. The stored time only moves forward, so a delayed request cannot make a
   * sim look quieter than it is. Record the heartbeat before applying the state it reports, so the
   * monitor never sees the new state with the old heartbeat time.
   */
  public void recordHeartbeat(String simId) {
    database.write(
        connection -> {
          recordHeartbeat(connection, simId, clock.instant());
          return null;
        });
  }

  /** A heartbeat at {@code at} in the caller's write transaction, with the move it reports. */
  public void recordHeartbeat(Connection connection, String simId, Instant at) throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET last_heartbeat_at = max(coalesce(last_heartbeat_at, ''), ?)"
                + " WHERE id = ?")) {
      update.setString(1, SqlTimes.text(at));
      update.setString(2, simId);
      if (update.executeUpdate() == 0) {
        throw SimRows.notFound(simId);
      }
    }
  }

  private boolean move(String simId, SimState expectedFrom, SimState to, Outcome outcome) {
    return database.write(connection -> move(connection, simId, expectedFrom, to, outcome));
  }

  /**
   * {@link #transition(String, SimState, SimState, Outcome)} inside the caller's write transaction,
   * so the move and what goes with it (an event) commit together. {@code expectedFrom} null means
   * any state.
   */
  public boolean move(
      Connection connection, String simId, SimState expectedFrom, SimState to, Outcome outcome)
      throws SQLException {
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(outcome, "outcome");
    Instant now = clock.instant();
    SimState current = currentState(connection, simId);
    if (expectedFrom != null && current != expectedFrom) {
      log.debug(
          "sim {} is {}, not {}: move to {} ignored",
          simId,
          current.wireName(),
          expectedFrom.wireName(),
          to.wireName());
      return false;
    }
    if (!SimStateMachine.allows(current, to)) {
      log.debug(
          "sim {}: move {} -> {} is not in SIM_TRANSITIONS; ignored",
          simId,
          current.wireName(),
          to.wireName());
      return false;
    }
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET state = ?, error = coalesce(?, error),"
                + " exit_code = coalesce(?, exit_code), finished_at = coalesce(?, finished_at),"
                + " failure_class = coalesce(?, failure_class) WHERE id = ? AND state = ?")) {
      update.setString(1, to.wireName());
      update.setString(2, outcome.error());
      if (outcome.exitCode() == null) {
        update.setNull(3, Types.INTEGER);
      } else {
        update.setInt(3, outcome.exitCode());
      }
      update.setString(4, to.isFinished() ? SqlTimes.text(now) : null);
      FailureClass failureClass =
          outcome.failureClass() != null
              ? outcome.failureClass()
              : FailureClass.classify(outcome.error(), outcome.exitCode(), List.of());
      update.setString(5, to == SimState.FAILED ? failureClass.wireName() : null);
      update.setString(6, simId);
      update.setString(7, current.wireName());
      return update.executeUpdate() == 1;
    }
  }

  /** The sim as the caller's transaction sees it. */
  public Optional<Sim> find(Connection connection, String simId) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("SELECT " + SimRows.COLUMNS + " FROM sims s WHERE s.id = ?")) {
      select.setString(1, simId);
      try (ResultSet rows = select.executeQuery()) {
        return rows.next() ? Optional.of(SimRows.read(rows)) : Optional.empty();
      }
    }
  }

  /**
   * The sim's run, config, state and parse progress, for resuming the parse of its output.
   *
   * @throws CascadeException {@code not_found} when there is no such sim
   */
  public ParseState parseState(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT run_id, gpu_config, state, chunks_parsed, kernels_done,"
                      + " current_kernel, latest_metrics, log_outcome, launched_at FROM sims"
                      + " WHERE id = ?")) {
            select.setString(1, simId);
            try (ResultSet row = select.executeQuery()) {
              if (!row.next()) {
                throw SimRows.notFound(simId);
              }
              return SimRows.parseState(row);
            }
          }
        });
  }

  /**
   * Stores the parse progress of the sim's output in the caller's write transaction.
   *
   * @throws CascadeException {@code not_found} when there is no such sim
   */
  public void recordParse(Connection connection, String simId, ParseProgress progress)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET chunks_parsed = ?, kernels_done = ?, current_kernel = ?,"
                + " latest_metrics = ?, log_outcome = ? WHERE id = ?")) {
      update.setLong(1, progress.chunksParsed());
      update.setInt(2, progress.kernelsDone());
      update.setString(3, progress.currentKernel());
      update.setString(4, progress.latestMetrics());
      update.setString(5, progress.logOutcome());
      update.setString(6, simId);
      if (update.executeUpdate() != 1) {
        throw SimRows.notFound(simId);
      }
    }
  }

  /** How the sim's log ended as stored ({@code failed}, ...); empty while it runs; not_found. */
  public Optional<String> logOutcome(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement("SELECT log_outcome FROM sims WHERE id = ?")) {
            select.setString(1, simId);
            try (ResultSet row = select.executeQuery()) {
              if (!row.next()) {
                throw SimRows.notFound(simId);
              }
              return Optional.ofNullable(row.getString(1));
            }
          }
        });
  }

  /** The sim's state alone, all a routine heartbeat needs; {@code not_found} when it is absent. */
  public SimState state(String simId) {
    return database.read(connection -> currentState(connection, simId));
  }

  /** Checks that the sim exists: {@code not_found} when it does not. */
  public void requireExists(String simId) {
    database.read(
        connection -> {
          requireExists(connection, simId);
          return null;
        });
  }

  /** {@link #requireExists(String)} as the caller's transaction sees the table. */
  public static void requireExists(Connection connection, String simId) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("SELECT 1 FROM sims WHERE id = ?")) {
      select.setString(1, simId);
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          throw SimRows.notFound(simId);
        }
      }
    }
  }

  /**
   * {@code "reuse": true}: makes the new pending {@code sim} {@code succeeded} at once with the
   * outcome of the first earlier sim that succeeded on the same inputs ({@link Provenance},
   * replica, window), never launched; the caller copies the kernels and log. Empty when there is
   * none.
   */
  public Optional<String> reuseEarlier(Connection connection, Sim sim, Instant at)
      throws SQLException {
    Provenance provenance = sim.provenance();
    if (!provenance.reusable()) {
      return Optional.empty();
    }
    String from;
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT coalesce(reused_from, id) FROM sims WHERE state = 'succeeded'"
                + " AND trace_hash = ? AND config_hash = ? AND simulator = ? AND replica = ?"
                + " AND kernel_window IS ? AND id <> ? ORDER BY finished_at, id LIMIT 1")) {
      SimRows.bind(
          select,
          provenance.traceHash(),
          provenance.configHash(),
          provenance.simulator(),
          sim.replica(),
          sim.kernels(),
          sim.id());
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        from = row.getString(1);
      }
    }
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET (exit_code, chunks_parsed, kernels_done, kernels_total,"
                + " current_kernel, latest_metrics, log_outcome, accelsim_build, gpgpusim_build,"
                + " accelsim_version, gpgpusim_version)"
                + " = (SELECT f.exit_code, f.chunks_parsed, f.kernels_done, f.kernels_total,"
                + " f.current_kernel, f.latest_metrics, f.log_outcome, f.accelsim_build,"
                + " f.gpgpusim_build, f.accelsim_version, f.gpgpusim_version FROM sims f"
                + " WHERE f.id = ?),"
                + " state = 'succeeded', finished_at = ?, reused_from = ?"
                + " WHERE id = ? AND state = 'pending'")) {
      SimRows.bind(update, from, SqlTimes.text(at), from, sim.id());
      return update.executeUpdate() == 1 ? Optional.of(from) : Optional.empty();
    }
  }

  /**
   * Per-kernel reuse: the first earlier sim that simulated the whole trace on the same inputs
   * ({@link Provenance}) and replica, and whose log ended normally, for a new sim of a kernel
   * window to take its kernels from. Empty when there is none, or the sim has no window.
   */
  public Optional<String> wholeTraceSimFor(Connection connection, Sim sim) throws SQLException {
    Provenance provenance = sim.provenance();
    if (!provenance.reusable() || sim.kernels() == null) {
      return Optional.empty();
    }
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT coalesce(reused_from, id) FROM sims WHERE state = 'succeeded'"
                + " AND trace_hash = ? AND config_hash = ? AND simulator = ? AND replica = ?"
                + " AND kernel_window IS NULL AND log_outcome = 'complete' AND id <> ?"
                + " ORDER BY finished_at, id LIMIT 1")) {
      SimRows.bind(
          select,
          provenance.traceHash(),
          provenance.configHash(),
          provenance.simulator(),
          sim.replica(),
          sim.id());
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * Makes the new pending windowed {@code sim} {@code succeeded} at once with the {@code kernels}
   * the caller copied from the whole-trace sim {@code from}, never launched; it keeps no log of its
   * own ({@code reused_from} names the sim whose log holds its kernels).
   */
  public boolean reuseKernelsOf(
      Connection connection, Sim sim, String from, int kernels, Instant at) throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET (exit_code, latest_metrics, accelsim_build, gpgpusim_build,"
                + " accelsim_version, gpgpusim_version) = (SELECT f.exit_code, f.latest_metrics,"
                + " f.accelsim_build, f.gpgpusim_build, f.accelsim_version, f.gpgpusim_version"
                + " FROM sims f WHERE f.id = ?), chunks_parsed = 0, kernels_done = ?,"
                + " kernels_total = ?, log_outcome = 'complete', state = 'succeeded',"
                + " finished_at = ?, reused_from = ? WHERE id = ? AND state = 'pending'")) {
      SimRows.bind(update, from, kernels, kernels, SqlTimes.text(at), from, sim.id());
      return update.executeUpdate() == 1;
    }
  }

  /**
   * Stores the build strings the sim's log printed and the versions their lines named; a build
   * already stored is kept, and so is its version.
   */
  public void recordBuilds(Connection connection, String simId, LogBuilds builds)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET accelsim_version = CASE WHEN accelsim_build IS NULL THEN ? ELSE"
                + " accelsim_version END, gpgpusim_version = CASE WHEN gpgpusim_build IS NULL"
                + " THEN ? ELSE gpgpusim_version END, accelsim_build = coalesce(accelsim_build,"
                + " ?), gpgpusim_build = coalesce(gpgpusim_build, ?) WHERE id = ?")) {
      SimRows.bind(
          update,
          builds.accelSimVersion(),
          builds.gpgpuSimVersion(),
          builds.accelSim(),
          builds.gpgpuSim(),
          simId);
      update.executeUpdate();
    }
  }

  /** Inserts a run's new sims or next attempts, {@code pending}, in the caller's transaction. */
  public static void insertPending(Connection connection, String runId, List<Sim> sims)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO sims (id, run_id, gpu_config, replica, state, created_at,"
                + " kernels_total, attempt, kernel_window, trace_hash, config_hash, simulator)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (Sim sim : sims) {
        SimRows.bind(
            insert,
            sim.id(),
            runId,
            sim.gpuConfig(),
            sim.replica(),
            SimState.PENDING.wireName(),
            SqlTimes.text(sim.createdAt()),
            sim.progress().kernelsTotal(),
            sim.attempt(),
            sim.kernels(),
            sim.provenance().traceHash(),
            sim.provenance().configHash(),
            sim.provenance().simulator());
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  /**
   * The sims of the runs {@code runIds}, by run id, each list in id order; a run without sims has
   * no entry. Read on the caller's connection, so a read transaction sees them with their runs.
   */
  static Map<String, List<Sim>> findByRuns(Connection connection, List<String> runIds)
      throws SQLException {
    Map<String, List<Sim>> byRun = new HashMap<>();
    for (int from = 0; from < runIds.size(); from += RUNS_PER_QUERY) {
      List<String> batch = runIds.subList(from, Math.min(runIds.size(), from + RUNS_PER_QUERY));
      String placeholders = String.join(", ", Collections.nCopies(batch.size(), "?"));
      try (PreparedStatement select =
          connection.prepareStatement(
              "SELECT "
                  + SimRows.COLUMNS
                  + " FROM sims s WHERE s.run_id IN ("
                  + placeholders
                  + ") ORDER BY s.id")) {
        for (int i = 0; i < batch.size(); i++) {
          select.setString(i + 1, batch.get(i));
        }
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            Sim sim = SimRows.read(rows);
            byRun.computeIfAbsent(sim.runId(), id -> new ArrayList<>()).add(sim);
          }
        }
      }
    }
    return byRun;
  }

  /**
   * The finished sims created before {@code before} whose logs are still kept, oldest first, at
   * most {@code limit}: what log retention drops.
   */
  public List<Sim> withLogsBefore(Instant before, int limit) {
    return database.read(
        connection -> {
          List<Sim> found = new ArrayList<>();
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + SimRows.COLUMNS
                      + " FROM sims s WHERE s.log_dropped_at IS NULL AND s.created_at < ?"
                      + " AND s.state IN ('succeeded', 'failed', 'cancelled')"
                      + " ORDER BY s.created_at LIMIT ?")) {
            select.setString(1, SqlTimes.text(before));
            select.setInt(2, limit);
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                found.add(SimRows.read(rows));
              }
            }
          }
          return found;
        });
  }

  /**
   * Notes, in the caller's write transaction, that retention dropped the sim's log at {@code at}.
   */
  public static void markLogDropped(Connection connection, String simId, Instant at)
      throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement("UPDATE sims SET log_dropped_at = ? WHERE id = ?")) {
      update.setString(1, SqlTimes.text(at));
      update.setString(2, simId);
      update.executeUpdate();
    }
  }

  /** How many of the run's sims had their log dropped by retention. */
  public int logsDropped(String runId) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT count(*) FROM sims WHERE run_id = ? AND log_dropped_at IS NOT NULL")) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
              row.next();
              return row.getInt(1);
            }
          }
        });
  }

  private void update(String simId, String sql, Object... values) {
    Objects.requireNonNull(simId, "simId");
    database.write(
        connection -> {
          try (PreparedStatement update = connection.prepareStatement(sql)) {
            SimRows.bind(update, values);
            update.setString(values.length + 1, simId);
            if (update.executeUpdate() == 0) {
              throw SimRows.notFound(simId);
            }
            return null;
          }
        });
  }

  private static SimState currentState(Connection connection, String simId) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("SELECT state FROM sims WHERE id = ?")) {
      select.setString(1, simId);
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          throw SimRows.notFound(simId);
        }
        return SimState.fromWireName(rows.getString(1));
      }
    }
  }
}
