package dev.cascade.bench;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The ingest benchmark's rows of the fleet-scale table (issue 14), each with the figures it was
 * judged on and its baseline from the same run; a phase that did not run leaves its row unmeasured.
 * {@code work} is the bench root ({@code bench.work}), whose {@code goals/} {@link GoalsSummary}
 * reads.
 */
final class IngestGoals {

  private IngestGoals() {}

  static void record(
      Path work,
      LoadResult bare,
      LoadResult healthz,
      LoadResult heartbeat,
      LoadResult chunks,
      LoadResult chunks16,
      SimSwarm.Result swarm,
      ManySimsPhases.LostCheck lost) {
    Goals goals = new Goals("ingest");
    if (heartbeat != null && bare != null) {
      double ratio = heartbeat.perSecond() / bare.perSecond();
      goals.record(
          GoalRow.HEARTBEAT_VS_BARE,
          String.format(
              Locale.ROOT,
              "%.3fx: %,.0f heartbeats/s against %,.0f/s bare Javalin POST (%s generator)",
              ratio,
              heartbeat.perSecond(),
              bare.perSecond(),
              heartbeat.generator()),
          ratio >= 0.5);
    }
    if (heartbeat != null && healthz != null) {
      double ratio = heartbeat.perSecond() / healthz.perSecond();
      goals.record(
          GoalRow.HEARTBEAT_VS_HEALTHZ,
          String.format(
              Locale.ROOT,
              "%.3fx: %,.0f heartbeats/s against %,.0f/s GET /healthz, 64 connections (%s"
                  + " generator)",
              ratio,
              heartbeat.perSecond(),
              healthz.perSecond(),
              heartbeat.generator()),
          ratio >= 0.5);
    }
    if (chunks != null) {
      goals.record(
          GoalRow.CHUNKS_CLOSED_LOOP,
          String.format(
              Locale.ROOT,
              "%,.0f/s durable (p99 %.1f ms, 64 connections, %s generator)",
              chunks.perSecond(),
              chunks.p99Ms(),
              chunks.generator()),
          chunks.perSecond() >= 20_000);
    }
    if (chunks16 != null) {
      goals.record(
          GoalRow.CHUNKS_16_SENDERS,
          String.format(
              Locale.ROOT,
              "%,.0f/s durable (p99 %.1f ms, %s generator)",
              chunks16.perSecond(),
              chunks16.p99Ms(),
              chunks16.generator()),
          chunks16.perSecond() >= 10_000);
    }
    if (swarm != null) {
      double p99 = swarm.latencies().millis(0.99);
      goals.record(
          GoalRow.HEARTBEAT_P99_2000,
          String.format(
              Locale.ROOT,
              "p99 %.1f ms (p50 %.1f ms; %,d heartbeats answered, %,d unanswered)",
              p99,
              swarm.latencies().millis(0.50),
              swarm.heartbeats(),
              swarm.heartbeatsUnanswered()),
          p99 < 50 && swarm.heartbeatsUnanswered() == 0);
    }
    if (lost != null) {
      double p99 = lost.flood().heartbeats().millis(0.99);
      goals.record(
          GoalRow.LOST_10000,
          String.format(
              Locale.ROOT,
              "%,d of %,d acknowledged chunks lost; heartbeat p99 %.1f ms (a heartbeat after each"
                  + " chunk, 512 requests open); %s",
              lost.lost(),
              lost.flood().ackedTotal(),
              p99,
              lost.logs()),
          lost.lost() == 0 && p99 < 250);
    }
    goals.save(work);
  }
}
