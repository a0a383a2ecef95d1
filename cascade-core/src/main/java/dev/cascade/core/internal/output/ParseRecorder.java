package dev.cascade.core.internal.output;

import dev.cascade.accelsim.stats.LogBuilds;
import dev.cascade.core.SimEvent;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimParse.Finished;
import dev.cascade.core.internal.output.SimParse.Progress;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.Metrics;
import dev.cascade.core.internal.store.ParseProgress;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.spi.FinishedKernel;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Stores what a sim's parse found since the last write: a {@code log} event with the new lines,
 * each finished kernel (a {@code sim_kernels} row and a {@code kernel} event), the sim's progress,
 * and a {@code sim} event when the progress changed. {@link #prepare} builds the rows and their
 * JSON under the sim's lock only; {@link #store} then runs just the inserts in the caller's write
 * transaction, so the single writer's turn is short.
 */
final class ParseRecorder {

  /** A finished kernel ready to insert: its statistics and its event already written as JSON. */
  private record KernelRow(
      int position,
      FinishedKernel kernel,
      byte[] storedStats,
      String eventJson,
      Instant finishedAt,
      Duration wallTime) {}

  /** What one write stores for a sim, built before the write. */
  static final class Prepared {
    private final Instant at;
    private final String logJson;
    private final List<KernelRow> kernels;
    private final ParseProgress progress;
    private final LogBuilds builds;
    private final boolean progressChanged;

    private Prepared(
        Instant at,
        String logJson,
        List<KernelRow> kernels,
        ParseProgress progress,
        LogBuilds builds,
        boolean progressChanged) {
      this.at = at;
      this.logJson = logJson;
      this.kernels = kernels;
      this.progress = progress;
      this.builds = builds;
      this.progressChanged = progressChanged;
    }
  }

  private final SimRepository sims;
  private final KernelRepository kernels;
  private final EventLog events;
  private final Clock clock;

  ParseRecorder(SimRepository sims, KernelRepository kernels, EventLog events, Clock clock) {
    this.sims = sims;
    this.kernels = kernels;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Takes what the parse found since the last write and writes it as rows and JSON; {@code before}
   * is the progress the last write stored. Changes the sim as the write will: when the write fails,
   * the caller drops the sim, as after any failed write.
   */
  Prepared prepare(SimParse sim, Progress before) {
    Instant at = clock.instant();
    long ended = sim.lines.ended();
    List<String> lines = sim.lines.drain();
    String logJson = lines.isEmpty() ? null : EventJson.log(lines, ended - lines.size());
    List<KernelRow> rows = new ArrayList<>();
    for (Finished kernel : sim.takeFinished()) {
      Duration wallTime = wallTime(sim.lastKernelAt, kernel.finishedAt());
      sim.lastKernelAt = kernel.finishedAt();
      rows.add(
          new KernelRow(
              kernel.position(),
              kernel.kernel(),
              KernelRepository.storedStats(kernel.kernel()),
              EventJson.kernel(
                  kernel.position(), kernel.kernel(), sim.clockMhz, kernel.finishedAt(), wallTime),
              kernel.finishedAt(),
              wallTime));
      sim.kernelsDone = Math.max(sim.kernelsDone, kernel.position() + 1);
      sim.latestMetrics = Metrics.toJson(SimParse.headline(kernel.kernel(), wallTime));
    }
    LogBuilds builds = sim.builds.equals(sim.buildsStored) ? null : sim.builds;
    return new Prepared(at, logJson, rows, sim.stored(), builds, !before.equals(sim.progress()));
  }

  /**
   * A kernel's wall time: from {@code start} (the previous kernel's end, or the sim's launch) to
   * its end; null when either is unknown, or when the end comes first (the agent's clock is behind
   * the app's, which stamped the launch).
   */
  static Duration wallTime(Instant start, Instant end) {
    if (start == null || end == null || end.isBefore(start)) {
      return null;
    }
    return Duration.between(start, end);
  }

  /** Stores what the parse found, in the caller's write transaction. */
  void store(Connection connection, SimParse sim, Progress before) throws SQLException {
    store(connection, sim, prepare(sim, before));
  }

  /** Stores a {@link #prepare}d write in the caller's write transaction. */
  void store(Connection connection, SimParse sim, Prepared prepared) throws SQLException {
    if (prepared.logJson != null) {
      events.append(
          connection, sim.runId, sim.simId, SimEvent.Kind.LOG, prepared.at, prepared.logJson);
    }
    for (KernelRow kernel : prepared.kernels) {
      if (kernels.insert(
          connection,
          sim.simId,
          kernel.position(),
          kernel.kernel(),
          kernel.storedStats(),
          kernel.finishedAt(),
          kernel.wallTime())) {
        events.append(
            connection,
            sim.runId,
            sim.simId,
            SimEvent.Kind.KERNEL,
            prepared.at,
            kernel.eventJson());
      }
    }
    sims.recordParse(connection, sim.simId, prepared.progress);
    if (prepared.builds != null) {
      sims.recordBuilds(connection, sim.simId, prepared.builds);
      sim.buildsStored = prepared.builds;
    }
    if (prepared.progressChanged) {
      // Read on the transaction's connection, so the event shows the sim with this change.
      String json =
          ApiJson.toJson(ApiJson.writeSim(sims.find(connection, sim.simId).orElseThrow()));
      events.append(connection, sim.runId, sim.simId, SimEvent.Kind.SIM, prepared.at, json);
    }
  }
}
