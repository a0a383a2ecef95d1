package dev.cascade.bench;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rate phases of the ingest benchmark: requests/s of the bare baseline and of heartbeats, and
 * durable chunks/s, each measured by a closed-loop generator over many connections after warming
 * up.
 */
final class ClosedLoopPhases {

  /** Sims the closed-loop phases spread their requests over. */
  static final int LOAD_SIMS = 1024;

  /** Warm-up rounds that always run (the first time a server is measured in this JVM). */
  static final int MIN_WARMUP_ROUNDS = 5;

  /** A closed-loop load generator. */
  @FunctionalInterface
  interface Generator {
    LoadResult run(LoadTarget target, int connections, Duration duration)
        throws IOException, InterruptedException;
  }

  private final IngestSettings settings;
  private final Generator generator;

  ClosedLoopPhases(IngestSettings settings, Generator generator) {
    this.settings = settings;
    this.generator = generator;
  }

  /** A bare Javalin POST endpoint, with the same headers and body as a heartbeat. */
  LoadResult baseline(String name, int minRounds) throws IOException, InterruptedException {
    // Same headers and body as a heartbeat; the tokens are never checked.
    List<SimRef> sims = new ArrayList<>();
    for (int i = 0; i < LOAD_SIMS; i++) {
      sims.add(new SimRef(String.format(Locale.ROOT, "s_bench%05d", i), "x".repeat(43)));
    }
    try (BaselineServer server = BaselineServer.start()) {
      return warmUpAndMeasure(
          name, minRounds, new LoadTarget(server.url(), LoadTarget.Kind.BASELINE, sims, List.of()));
    }
  }

  /** Cascade's heartbeat endpoint, for {@code sims}. */
  LoadResult heartbeat(EmbeddedCascade app, List<SimRef> sims)
      throws IOException, InterruptedException {
    return warmUpAndMeasure(
        "Cascade heartbeat POST",
        MIN_WARMUP_ROUNDS,
        new LoadTarget(app.url(), LoadTarget.Kind.HEARTBEAT, sims, List.of()));
  }

  /** The same server's {@code GET /healthz}: what a request costs there before any work. */
  LoadResult healthz(EmbeddedCascade app, List<SimRef> sims)
      throws IOException, InterruptedException {
    return warmUpAndMeasure(
        "Cascade GET /healthz",
        MIN_WARMUP_ROUNDS,
        new LoadTarget(app.url(), LoadTarget.Kind.HEALTHZ, sims, List.of()));
  }

  /**
   * At least {@code minRounds} warm-up rounds, and more while the rate still rises by 10% (the JIT
   * on a busy two-core machine takes many seconds), then the measurement.
   */
  private LoadResult warmUpAndMeasure(String name, int minRounds, LoadTarget target)
      throws IOException, InterruptedException {
    List<String> rounds = new ArrayList<>();
    double previous = 0;
    for (int round = 0; round < settings.warmupRounds(); round++) {
      double rate =
          generator.run(target, settings.connections(), settings.warmupRound()).perSecond();
      rounds.add(String.format(Locale.ROOT, "%,.0f", rate));
      if (round >= minRounds - 1 && rate < previous * 1.1) {
        break;
      }
      previous = rate;
    }
    double cpu = CpuTime.self();
    LoadResult result = generator.run(target, settings.connections(), settings.seconds());
    cpu = CpuTime.self() - cpu;
    System.out.printf(
        Locale.ROOT,
        "%-26s %s (warm-up rounds: %s/s); this JVM used %.0f%% of a core, %.0f us a request%n",
        name + ":",
        result.describe(),
        String.join(", ", rounds),
        cpu / result.seconds() * 100,
        cpu / Math.max(1, result.ok()) * 1e6);
    return result;
  }

  /**
   * Durable chunk PUTs over {@code connections} senders: one warm-up round on {@code warmupSims},
   * the measurement on {@code sims}, then the chunks {@code cascade.db} holds for them.
   */
  LoadResult chunks(
      EmbeddedCascade app,
      List<byte[]> bodies,
      List<SimRef> warmupSims,
      List<SimRef> sims,
      int connections)
      throws IOException, InterruptedException, SQLException {
    generator.run(
        new LoadTarget(app.url(), LoadTarget.Kind.CHUNK, warmupSims, bodies),
        connections,
        settings.warmupRound());
    double cpu = CpuTime.self();
    LoadResult result =
        generator.run(
            new LoadTarget(app.url(), LoadTarget.Kind.CHUNK, sims, bodies),
            connections,
            settings.seconds());
    cpu = CpuTime.self() - cpu;
    Thread.sleep(1000); // the requests wrk left open when it stopped
    Map<String, StoredChunks.Stored> stored =
        StoredChunks.read(app.dataDir().resolve("cascade.db"));
    long held = 0;
    for (SimRef sim : sims) {
      StoredChunks.Stored chunks = stored.get(sim.id());
      held += chunks == null ? 0 : chunks.seqs().cardinality();
    }
    System.out.printf(
        Locale.ROOT,
        "%-26s %s; %,d chunks in cascade.db; this JVM used %.0f%% of a core, %.0f us a chunk%n",
        "Cascade chunk PUT, " + connections + ":",
        result.describe(),
        held,
        cpu / result.seconds() * 100,
        cpu / Math.max(1, result.ok()) * 1e6);
    return result;
  }
}
