package dev.cascade.core;

import dev.cascade.accelsim.stats.GetStatsList;
import dev.cascade.accelsim.stats.GetStatsTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * A run's results in the CSV layout of Accel-Sim's {@code get_stats.py -k -K} (cascade-accelsim's
 * {@link GetStatsTable}, with Accel-Sim's example statistics), so {@code merge-stats.py} and {@code
 * plot-get-stats.py} read them. Each succeeded sim (latest attempt) is one output file of the
 * script: app = the run's trace id, args = {@code replica_N}, config = the sim's GPU config. Rows
 * are {@code TRACE/replica_N--KERNEL--INSTANCE}, columns the configs.
 */
public final class RunGetStats {

  private RunGetStats() {}

  /** The args folder name of a replica: {@code replica_0}, {@code replica_1}, ... */
  public static String args(int replica) {
    return "replica_" + replica;
  }

  /**
   * Writes the table of the run's succeeded sims, each log read once from {@code logs} (closed
   * after); with {@code configsAsRows}, the script's {@code -R} layout.
   */
  public static void write(
      Run run, Function<Sim, InputStream> logs, boolean configsAsRows, Appendable out)
      throws IOException {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(logs, "logs");
    Objects.requireNonNull(out, "out");
    GetStatsTable table = new GetStatsTable(GetStatsList.ACCEL_SIM_EXAMPLE, false);
    for (Sim sim : run.latestAttempts()) {
      if (sim.state() != SimState.SUCCEEDED) {
        continue;
      }
      try (InputStream log = logs.apply(sim);
          BufferedReader reader =
              new BufferedReader(new InputStreamReader(log, StandardCharsets.UTF_8))) {
        table.add(run.traceId(), args(sim.replica()), sim.gpuConfig(), reader);
      }
    }
    table.write(out, configsAsRows);
  }
}
