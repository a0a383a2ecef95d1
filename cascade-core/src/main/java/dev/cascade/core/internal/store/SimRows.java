package dev.cascade.core.internal.store;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.FailureClass;
import dev.cascade.core.Provenance;
import dev.cascade.core.Sim;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * A sim as {@link SimRepository} selects it: the columns it names, the records it reads, and the
 * parameters it binds.
 */
final class SimRows {

  /** The sim columns, from {@code sims s}, as {@link #read} reads them. */
  static final String COLUMNS =
      "s.id AS sim_id, s.run_id AS sim_run_id, s.gpu_config AS sim_gpu_config,"
          + " s.replica AS sim_replica, s.state AS sim_state, s.launcher_ref AS sim_launcher_ref,"
          + " s.error AS sim_error, s.exit_code AS sim_exit_code,"
          + " s.created_at AS sim_created_at, s.launched_at AS sim_launched_at,"
          + " s.last_heartbeat_at AS sim_last_heartbeat_at, s.finished_at AS sim_finished_at,"
          + " s.launcher_name AS sim_launcher_name, s.kernels_done AS sim_kernels_done,"
          + " s.kernels_total AS sim_kernels_total, s.current_kernel AS sim_current_kernel,"
          + " s.latest_metrics AS sim_latest_metrics, s.log_outcome AS sim_log_outcome,"
          + " s.attempt AS sim_attempt, s.kernel_window AS sim_kernel_window,"
          + " s.failure_class AS sim_failure_class, s.trace_hash AS sim_trace_hash,"
          + " s.config_hash AS sim_config_hash, s.simulator AS sim_simulator,"
          + " s.accelsim_build AS sim_accelsim_build, s.gpgpusim_build AS sim_gpgpusim_build,"
          + " s.reused_from AS sim_reused_from, s.accelsim_version AS sim_accelsim_version,"
          + " s.gpgpusim_version AS sim_gpgpusim_version,"
          + " s.peak_memory_bytes AS sim_peak_memory_bytes";

  /** Reads the {@link #COLUMNS} of the current row; they must come first in the select. */
  static Sim read(ResultSet row) throws SQLException {
    // By position (COLUMNS in order): a lookup by label scans every column name, per value.
    int exitCode = row.getInt(8);
    Integer storedExitCode = row.wasNull() ? null : exitCode;
    return new Sim(
        row.getString(1),
        row.getString(2),
        row.getString(3),
        row.getInt(4),
        SimState.fromWireName(row.getString(5)),
        row.getString(6),
        row.getString(7),
        storedExitCode,
        SqlTimes.instant(row.getString(9)),
        SqlTimes.instant(row.getString(10)),
        SqlTimes.instant(row.getString(11)),
        SqlTimes.instant(row.getString(12)),
        row.getString(13),
        new SimProgress(
            row.getInt(14),
            row.getInt(15),
            row.getString(16),
            Metrics.fromJson(row.getString(17)),
            row.getString(18)),
        row.getInt(19),
        row.getString(20),
        row.getString(21) == null ? null : FailureClass.fromWireName(row.getString(21)),
        new Provenance(
            row.getString(22),
            row.getString(23),
            row.getString(24),
            row.getString(25),
            row.getString(26),
            row.getString(27),
            row.getString(28),
            row.getString(29)),
        peakMemory(row));
  }

  private static Long peakMemory(ResultSet row) throws SQLException {
    long bytes = row.getLong(30);
    return row.wasNull() ? null : bytes;
  }

  /** The row of {@code SELECT run_id, gpu_config, state, chunks_parsed, ... log_outcome}. */
  static ParseState parseState(ResultSet row) throws SQLException {
    return new ParseState(
        row.getString(1),
        row.getString(2),
        SimState.fromWireName(row.getString(3)),
        new ParseProgress(
            row.getLong(4), row.getInt(5), row.getString(6), row.getString(7), row.getString(8)),
        SqlTimes.instant(row.getString(9)));
  }

  /** Binds {@code values} to the statement's parameters in order: text, whole numbers or null. */
  static void bind(PreparedStatement statement, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      switch (values[i]) {
        case null -> statement.setNull(i + 1, Types.VARCHAR);
        case Integer number -> statement.setInt(i + 1, number);
        case Long number -> statement.setLong(i + 1, number);
        default -> statement.setString(i + 1, values[i].toString());
      }
    }
  }

  static CascadeException notFound(String simId) {
    return new CascadeException(
        ErrorCode.NOT_FOUND,
        "sim \"" + simId + "\" does not exist; sim ids come from the run that created them",
        "sim_id");
  }

  private SimRows() {}
}
