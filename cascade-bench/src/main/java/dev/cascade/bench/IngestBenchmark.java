package dev.cascade.bench;

import dev.cascade.core.LogSettings;
import dev.cascade.core.internal.run.SimTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The ingest benchmark of DESIGN.md section 15, in one run: a bare Javalin 7 POST endpoint on
 * virtual threads (the baseline), then Cascade's heartbeat and chunk endpoints on a real {@code
 * CascadeServer} over an embedded {@code Cascade} whose runs hold many sims (a launcher that starts
 * nothing; the benchmark plays the sims, with their real tokens):
 *
 * <ol>
 *   <li>requests/s of the baseline and of heartbeats, 64 connections, closed loop (wrk when
 *       installed, else the JDK's HttpClient), and their ratio (target at least 0.5);
 *   <li>durable chunks/s: a chunk PUT answers once the chunk is committed (target 20,000);
 *   <li>heartbeat round trips at 2,000 emulated sims, each sending a heartbeat every 2 s and a
 *       chunk of the emulator's output every second (target p99 under 50 ms);
 *   <li>chunks lost at 10,000 sims: chunks acknowledged against the rows in {@code cascade.db}, and
 *       a sample of logs read back through the API (target none).
 * </ol>
 *
 * <p>Every phase is bounded in time; everything is on loopback. Run with {@code ./mvnw -Pbench -pl
 * cascade-bench -am verify -DskipTests -Dbench=ingest}. Settings (system properties, set by the
 * pom): {@code bench.work}; {@code bench.ingest.generator} ({@code auto}, {@code wrk} or {@code
 * java}); {@code bench.ingest.phases} (default all: {@code
 * baseline,healthz,heartbeat,chunks,chunks16,latency,lost}); {@code bench.ingest.seconds} (5, each
 * measurement); {@code bench.ingest.warmup.seconds} (2, a warm-up round; at least 5 rounds, then
 * more, up to {@code bench.ingest.warmup.rounds} (8), while the rate still rises by 10%); {@code
 * bench.ingest.connections} (64); {@code bench.ingest.chunk.bytes} (4096); {@code
 * bench.ingest.latency.sims} (2000); {@code bench.ingest.latency.seconds} (10); {@code
 * bench.ingest.lost.sims} (10000); {@code bench.ingest.lost.chunks} (1 per sim); {@code
 * bench.ingest.lost.seconds} (60, a cap).
 *
 * <p>This class sets the phases up and runs them in order: {@link ClosedLoopPhases} measures the
 * rates, {@link ManySimsPhases} the many-sims phases, {@link IngestSummary} reports against the
 * targets.
 */
public final class IngestBenchmark {

  /** Senders (connections, one sim each at a time) of the 16-sender chunk phase. */
  static final int SENDERS_16 = 16;

  private final IngestSettings settings;
  private final ClosedLoopPhases closedLoop;
  private final ManySimsPhases manySims;
  private final boolean inProcessGenerator;

  private IngestBenchmark(
      IngestSettings settings, ClosedLoopPhases.Generator generator, boolean inProcessGenerator) {
    this.settings = settings;
    this.closedLoop = new ClosedLoopPhases(settings, generator);
    this.manySims = new ManySimsPhases(settings);
    this.inProcessGenerator = inProcessGenerator;
  }

  public static void main(String[] args) throws Exception {
    IngestSettings settings = IngestSettings.fromSystemProperties();
    System.out.println("== ingest benchmark (DESIGN.md section 15) ==");
    BenchHost.printMachine();
    Files.createDirectories(settings.work());

    Optional<Wrk> wrk =
        settings.generator().equals("java")
            ? Optional.empty()
            : Wrk.find(settings.work().resolve("wrk"), 2);
    if (settings.generator().equals("wrk") && wrk.isEmpty()) {
      throw new IllegalStateException("bench.ingest.generator=wrk, but there is no wrk on PATH");
    }
    ClosedLoopPhases.Generator generator;
    if (wrk.isPresent()) {
      generator = wrk.get()::run;
      System.out.println("load generator: wrk, " + wrk.get().describe());
    } else {
      generator = JavaLoad::run;
      System.out.println(
          "load generator: the JDK's HttpClient, in this JVM"
              + (settings.generator().equals("java") ? "" : " (no wrk on PATH)"));
    }
    new IngestBenchmark(settings, generator, wrk.isEmpty()).run();
  }

  /**
   * The {@code storage} phase: the 16-sender chunk PUT phase on a Cascade that stores chunks as
   * they came (the path before logs were compressed, issue 31) and on one that compresses them, in
   * this run; prints both rates, the database's size after each, and the ratios.
   */
  private void compareStorage() throws Exception {
    String[] names = {"raw (before)", "zstd (after)"};
    double[] rates = new double[2];
    long[] sent = new long[2];
    long[] onDisk = new long[2];
    // Raw, zstd, raw, zstd: each mode's better round counts, so neither gains from running last.
    for (int round = 0; round < 4; round++) {
      int mode = round % 2;
      Path dataDir = settings.work().resolve(mode == 0 ? "data-raw" : "data-zstd");
      GatedLauncher launcher = new GatedLauncher();
      try (EmbeddedCascade app =
          EmbeddedCascade.start(
              dataDir, launcher, List.of("true"), Map.of(), new LogSettings(mode == 1, null))) {
        String config = app.configs().get(0);
        List<byte[]> bodies =
            IngestSims.emulatorChunks(app.traceFolder(), config, settings.chunkBytes());
        SimTokens tokens = app.simTokens();
        List<SimRef> warmup = IngestSims.create(app, launcher, tokens, SENDERS_16);
        List<SimRef> sims = IngestSims.create(app, launcher, tokens, SENDERS_16);
        System.out.println("storage phase, chunks stored " + names[mode] + ":");
        LoadResult result = closedLoop.chunks(app, bodies, warmup, sims, SENDERS_16);
        if (result.perSecond() < rates[mode]) {
          continue; // the mode's other round was faster: keep its figures
        }
        rates[mode] = result.perSecond();
        sent[mode] =
            StoredChunks.read(dataDir.resolve("cascade.db")).values().stream()
                .mapToLong(StoredChunks.Stored::bytes)
                .sum();
      }
      onDisk[mode] = Files.size(dataDir.resolve("cascade.db")); // closed: the WAL is folded in
    }
    for (int mode = 0; mode < 2; mode++) {
      System.out.printf(
          Locale.ROOT,
          "storage, %s: %,.0f chunk PUTs/s from %d senders; %,d bytes of chunks sent,"
              + " cascade.db %,d bytes%n",
          names[mode],
          rates[mode],
          SENDERS_16,
          sent[mode],
          onDisk[mode]);
    }
    System.out.printf(
        Locale.ROOT,
        "storage: after/before = %.2fx chunk PUTs/s; cascade.db per byte of chunks sent %.3f"
            + " before, %.3f after%n",
        rates[1] / rates[0],
        (double) onDisk[0] / Math.max(1, sent[0]),
        (double) onDisk[1] / Math.max(1, sent[1]));
  }

  private void run() throws Exception {
    Set<String> phases = settings.phases();
    if (phases.contains("storage")) {
      compareStorage();
      if (phases.size() == 1) {
        return;
      }
    }
    LoadResult baseline =
        phases.contains("baseline")
            ? closedLoop.baseline("bare Javalin POST", ClosedLoopPhases.MIN_WARMUP_ROUNDS)
            : null;

    double probeSingle =
        StoredChunks.probeRowsPerSecond(settings.work(), 1, settings.chunkBytes(), 1.5);
    double probeGroup =
        StoredChunks.probeRowsPerSecond(settings.work(), 100, settings.chunkBytes(), 1.5);
    System.out.printf(
        Locale.ROOT,
        "SQLite on this disk (WAL, synchronous=FULL, %d-byte rows, one writer): %,.0f commits/s"
            + " of one row; %,.0f rows/s in commits of 100%n",
        settings.chunkBytes(),
        probeSingle,
        probeGroup);

    LoadResult healthz = null;
    LoadResult heartbeat = null;
    LoadResult chunks = null;
    LoadResult chunks16 = null;
    SimSwarm.Result swarm = null;
    ManySimsPhases.LostCheck lost = null;
    Path dataDir = settings.work().resolve("data");
    GatedLauncher launcher = new GatedLauncher();
    try (EmbeddedCascade app =
        EmbeddedCascade.start(dataDir, launcher, List.of("true"), Map.of())) {
      System.out.println("Cascade: " + app.url() + ", data in " + dataDir);
      String config = app.configs().get(0);
      List<byte[]> bodies =
          IngestSims.emulatorChunks(app.traceFolder(), config, settings.chunkBytes());
      System.out.printf(
          Locale.ROOT,
          "chunk bodies: the emulator's output for trace %s on %s, cut after a newline into %d"
              + " chunks of at most %d bytes (%d on average)%n",
          app.trace.id(),
          config,
          bodies.size(),
          settings.chunkBytes(),
          bodies.stream().mapToInt(body -> body.length).sum() / bodies.size());
      SimTokens tokens = app.simTokens();
      long created = System.nanoTime();
      List<SimRef> loadSims = List.of();
      List<SimRef> chunkWarmupSims = List.of();
      List<SimRef> chunkSims = List.of();
      List<SimRef> chunk16WarmupSims = List.of();
      List<SimRef> chunk16Sims = List.of();
      List<SimRef> swarmSims = List.of();
      List<SimRef> floodSims = List.of();
      if (phases.contains("heartbeat") || phases.contains("healthz")) {
        loadSims = IngestSims.create(app, launcher, tokens, ClosedLoopPhases.LOAD_SIMS);
      }
      if (phases.contains("chunks")) {
        chunkWarmupSims = IngestSims.create(app, launcher, tokens, ClosedLoopPhases.LOAD_SIMS);
        chunkSims = IngestSims.create(app, launcher, tokens, ClosedLoopPhases.LOAD_SIMS);
      }
      if (phases.contains("chunks16")) {
        chunk16WarmupSims = IngestSims.create(app, launcher, tokens, SENDERS_16);
        chunk16Sims = IngestSims.create(app, launcher, tokens, SENDERS_16);
      }
      if (phases.contains("latency")) {
        swarmSims = IngestSims.create(app, launcher, tokens, settings.latencySims());
      }
      if (phases.contains("lost")) {
        floodSims = IngestSims.create(app, launcher, tokens, settings.lostSims());
      }
      int total =
          loadSims.size()
              + chunkWarmupSims.size()
              + chunkSims.size()
              + chunk16WarmupSims.size()
              + chunk16Sims.size()
              + swarmSims.size()
              + floodSims.size();
      System.out.printf(
          Locale.ROOT,
          "created %,d sims in %.1f s, in runs of %d (they stay pending: the launcher starts"
              + " nothing, the benchmark plays them)%n",
          total,
          (System.nanoTime() - created) / 1e9,
          64 * app.configs().size());

      if (phases.contains("healthz")) {
        healthz = closedLoop.healthz(app, loadSims);
      }
      if (phases.contains("heartbeat")) {
        heartbeat = closedLoop.heartbeat(app, loadSims);
      }
      if (phases.contains("chunks")) {
        chunks = closedLoop.chunks(app, bodies, chunkWarmupSims, chunkSims, settings.connections());
      }
      if (phases.contains("chunks16")) {
        chunks16 = closedLoop.chunks(app, bodies, chunk16WarmupSims, chunk16Sims, SENDERS_16);
      }
      if (phases.contains("latency")) {
        swarm = manySims.latency(app, bodies, swarmSims);
      }
      if (phases.contains("lost")) {
        lost = manySims.lost(app, bodies, floodSims);
      }
    }
    if (baseline != null) {
      // Again, with the JIT warmer: the higher of the two counts (the stricter ratio).
      LoadResult again = closedLoop.baseline("bare Javalin POST, again", 1);
      if (again.perSecond() > baseline.perSecond()) {
        baseline = again;
      }
    }
    new IngestSummary(baseline, heartbeat, chunks, swarm, lost, probeSingle, probeGroup)
        .print(inProcessGenerator);
    IngestGoals.record(
        settings.work().getParent(), baseline, healthz, heartbeat, chunks, chunks16, swarm, lost);
  }
}
