package dev.cascade.core.internal.output;

import dev.cascade.core.SimEvent;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimParse.FinishedKernel;
import dev.cascade.core.internal.output.SimParse.Progress;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.Metrics;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.json.ApiJson;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Stores what a sim's parse found since the last write, in the caller's write transaction: a {@code
 * log} event with the new lines, each finished kernel (a {@code sim_kernels} row and a {@code
 * kernel} event), the sim's progress, and a {@code sim} event when the progress changed.
 */
final class ParseRecorder {

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

  /** Stores what the parse found; {@code before} is the progress the last write stored. */
  void store(Connection connection, SimParse sim, Progress before) throws SQLException {
    Instant at = clock.instant();
    long ended = sim.lines.ended();
    List<String> lines = sim.lines.drain();
    if (!lines.isEmpty()) {
      events.append(
          connection,
          sim.runId,
          sim.simId,
          SimEvent.Kind.LOG,
          at,
          EventJson.log(lines, ended - lines.size()));
    }
    for (FinishedKernel kernel : sim.takeFinished()) {
      if (kernels.insert(connection, sim.simId, kernel.position(), kernel.stats())) {
        events.append(
            connection,
            sim.runId,
            sim.simId,
            SimEvent.Kind.KERNEL,
            at,
            EventJson.kernel(kernel.position(), kernel.stats(), sim.clockMhz));
      }
      sim.kernelsDone = Math.max(sim.kernelsDone, kernel.position() + 1);
      sim.latestMetrics = Metrics.toJson(SimParse.headline(kernel.stats()));
    }
    sims.recordParse(connection, sim.simId, sim.stored());
    if (!sim.builds.equals(sim.buildsStored)) {
      sims.recordBuilds(connection, sim.simId, sim.builds.accelSim(), sim.builds.gpgpuSim());
      sim.buildsStored = sim.builds;
    }
    if (!before.equals(sim.progress())) {
      // Read on the transaction's connection, so the event shows the sim with this change.
      String json =
          ApiJson.toJson(ApiJson.writeSim(sims.find(connection, sim.simId).orElseThrow()));
      events.append(connection, sim.runId, sim.simId, SimEvent.Kind.SIM, at, json);
    }
  }
}
