package dev.cascade.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/** The ingest benchmark's settings, from system properties (see {@link IngestBenchmark}). */
record IngestSettings(
    Path work,
    String generator,
    Set<String> phases,
    Duration seconds,
    Duration warmupRound,
    int warmupRounds,
    int connections,
    int chunkBytes,
    int latencySims,
    Duration latencyWindow,
    int lostSims,
    int lostChunks,
    Duration lostCap) {

  static final Set<String> ALL_PHASES =
      Set.of(
          "baseline", "healthz", "heartbeat", "chunks", "chunks16", "latency", "lost", "storage");

  static IngestSettings fromSystemProperties() {
    Path work = BenchHost.work("ingest");
    String phases = System.getProperty("bench.ingest.phases", "");
    Set<String> chosen =
        phases.isBlank() || phases.equals("all")
            ? ALL_PHASES
            : Set.of(phases.strip().split("\\s*,\\s*"));
    for (String phase : chosen) {
      if (!ALL_PHASES.contains(phase)) {
        throw new IllegalArgumentException(
            "bench.ingest.phases: unknown phase '" + phase + "'; pick from " + ALL_PHASES);
      }
    }
    return new IngestSettings(
        work,
        System.getProperty("bench.ingest.generator", "auto"),
        chosen,
        Duration.ofSeconds(Long.getLong("bench.ingest.seconds", 5)),
        Duration.ofSeconds(Long.getLong("bench.ingest.warmup.seconds", 2)),
        Integer.getInteger("bench.ingest.warmup.rounds", 8),
        Integer.getInteger("bench.ingest.connections", 64),
        Integer.getInteger("bench.ingest.chunk.bytes", 4096),
        Integer.getInteger("bench.ingest.latency.sims", 2000),
        Duration.ofSeconds(Long.getLong("bench.ingest.latency.seconds", 10)),
        Integer.getInteger("bench.ingest.lost.sims", 10_000),
        Integer.getInteger("bench.ingest.lost.chunks", 1),
        Duration.ofSeconds(Long.getLong("bench.ingest.lost.seconds", 60)));
  }
}
