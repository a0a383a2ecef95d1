package dev.cascade.bench;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.core.internal.run.SimTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
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
 * baseline,heartbeat,chunks,latency,lost}); {@code bench.ingest.seconds} (5, each measurement);
 * {@code bench.ingest.warmup.seconds} (2, a warm-up round; at least 5 rounds, then more, up to
 * {@code bench.ingest.warmup.rounds} (8), while the rate still rises by 10%); {@code
 * bench.ingest.connections} (64); {@code bench.ingest.chunk.bytes} (4096); {@code
 * bench.ingest.latency.sims} (2000); {@code bench.ingest.latency.seconds} (10); {@code
 * bench.ingest.lost.sims} (10000); {@code bench.ingest.lost.chunks} (1 per sim); {@code
 * bench.ingest.lost.seconds} (60, a cap).
 */
public final class IngestBenchmark {

  private static final double TARGET_RATIO = 0.5;
  private static final double TARGET_CHUNKS_PER_SECOND = 20_000;
  private static final double TARGET_P99_MS = 50;

  /** Sims the closed-loop phases spread their requests over. */
  private static final int LOAD_SIMS = 1024;

  /** Warm-up rounds that always run (the first time a server is measured in this JVM). */
  private static final int MIN_WARMUP_ROUNDS = 5;

  /** Requests open at once in the lost-chunk phase. */
  private static final int FLOOD_IN_FLIGHT = 512;

  private static final Set<String> ALL_PHASES =
      Set.of("baseline", "heartbeat", "chunks", "latency", "lost");

  /** A closed-loop load generator. */
  @FunctionalInterface
  interface Generator {
    LoadResult run(LoadTarget target, int connections, Duration duration)
        throws IOException, InterruptedException;
  }

  /** The benchmark's settings, from system properties. */
  record Settings(
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

    static Settings fromSystemProperties() {
      Path root = Path.of(System.getProperty("bench.root", ".")).toAbsolutePath().normalize();
      Path work =
          Path.of(
                  System.getProperty(
                      "bench.work", root.resolve("cascade-bench/target/bench").toString()))
              .resolve("ingest")
              .toAbsolutePath();
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
      return new Settings(
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

  /** What the lost-chunk phase found. */
  record LostCheck(ChunkFlood.Result flood, long stored, long lost, long extra, String logs) {}

  private final Settings settings;
  private final Generator generator;
  private final boolean inProcessGenerator;

  private IngestBenchmark(Settings settings, Generator generator, boolean inProcessGenerator) {
    this.settings = settings;
    this.generator = generator;
    this.inProcessGenerator = inProcessGenerator;
  }

  public static void main(String[] args) throws Exception {
    Settings settings = Settings.fromSystemProperties();
    System.out.println("== ingest benchmark (DESIGN.md section 15) ==");
    System.out.printf(
        Locale.ROOT,
        "machine: %d cores, load average %s; Java %s%n",
        Runtime.getRuntime().availableProcessors(),
        loadAverage(),
        System.getProperty("java.version"));
    Files.createDirectories(settings.work());

    Optional<Wrk> wrk =
        settings.generator().equals("java")
            ? Optional.empty()
            : Wrk.find(settings.work().resolve("wrk"), 2);
    if (settings.generator().equals("wrk") && wrk.isEmpty()) {
      throw new IllegalStateException("bench.ingest.generator=wrk, but there is no wrk on PATH");
    }
    Generator generator;
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

  private void run() throws Exception {
    Set<String> phases = settings.phases();
    LoadResult baseline =
        phases.contains("baseline") ? baseline("bare Javalin POST", MIN_WARMUP_ROUNDS) : null;

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

    LoadResult heartbeat = null;
    LoadResult chunks = null;
    SimSwarm.Result swarm = null;
    LostCheck lost = null;
    Path dataDir = settings.work().resolve("data");
    try (EmbeddedCascade app =
        EmbeddedCascade.start(dataDir, new GatedLauncher(), List.of("true"), Map.of())) {
      System.out.println("Cascade: " + app.url() + ", data in " + dataDir);
      String config = app.configs().get(0);
      List<byte[]> bodies = emulatorChunks(app.traceFolder(), config, settings.chunkBytes());
      System.out.printf(
          Locale.ROOT,
          "chunk bodies: the emulator's output for trace %s on %s, cut after a newline into %d"
              + " chunks of at most %d bytes (%d on average)%n",
          app.trace.id(),
          config,
          bodies.size(),
          settings.chunkBytes(),
          bodies.stream().mapToInt(body -> body.length).sum() / bodies.size());
      SimTokens tokens = SimTokens.inDataDir(app.dataDir());
      long created = System.nanoTime();
      List<SimRef> loadSims = List.of();
      List<SimRef> chunkWarmupSims = List.of();
      List<SimRef> chunkSims = List.of();
      List<SimRef> swarmSims = List.of();
      List<SimRef> floodSims = List.of();
      if (phases.contains("heartbeat")) {
        loadSims = createSims(app, tokens, LOAD_SIMS);
      }
      if (phases.contains("chunks")) {
        chunkWarmupSims = createSims(app, tokens, LOAD_SIMS);
        chunkSims = createSims(app, tokens, LOAD_SIMS);
      }
      if (phases.contains("latency")) {
        swarmSims = createSims(app, tokens, settings.latencySims());
      }
      if (phases.contains("lost")) {
        floodSims = createSims(app, tokens, settings.lostSims());
      }
      int total =
          loadSims.size()
              + chunkWarmupSims.size()
              + chunkSims.size()
              + swarmSims.size()
              + floodSims.size();
      System.out.printf(
          Locale.ROOT,
          "created %,d sims in %.1f s, in runs of %d (they stay pending: the launcher starts"
              + " nothing, the benchmark plays them)%n",
          total,
          (System.nanoTime() - created) / 1e9,
          64 * app.configs().size());

      if (phases.contains("heartbeat")) {
        heartbeat =
            warmUpAndMeasure(
                "Cascade heartbeat POST",
                MIN_WARMUP_ROUNDS,
                new LoadTarget(app.url(), LoadTarget.Kind.HEARTBEAT, loadSims, List.of()));
      }
      if (phases.contains("chunks")) {
        chunks = chunks(app, bodies, chunkWarmupSims, chunkSims);
      }
      if (phases.contains("latency")) {
        swarm = latency(app, bodies, swarmSims);
      }
      if (phases.contains("lost")) {
        lost = lost(app, bodies, floodSims);
      }
    }
    if (baseline != null) {
      // Again, with the JIT warmer: the higher of the two counts (the stricter ratio).
      LoadResult again = baseline("bare Javalin POST, again", 1);
      if (again.perSecond() > baseline.perSecond()) {
        baseline = again;
      }
    }
    summary(baseline, heartbeat, chunks, swarm, lost, probeSingle, probeGroup);
  }

  private LoadResult baseline(String name, int minRounds) throws IOException, InterruptedException {
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

  private LoadResult chunks(
      EmbeddedCascade app, List<byte[]> bodies, List<SimRef> warmupSims, List<SimRef> sims)
      throws IOException, InterruptedException, SQLException {
    generator.run(
        new LoadTarget(app.url(), LoadTarget.Kind.CHUNK, warmupSims, bodies),
        settings.connections(),
        settings.warmupRound());
    double cpu = CpuTime.self();
    LoadResult result =
        generator.run(
            new LoadTarget(app.url(), LoadTarget.Kind.CHUNK, sims, bodies),
            settings.connections(),
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
        "Cascade chunk PUT:",
        result.describe(),
        held,
        cpu / result.seconds() * 100,
        cpu / Math.max(1, result.ok()) * 1e6);
    return result;
  }

  private SimSwarm.Result latency(EmbeddedCascade app, List<byte[]> bodies, List<SimRef> sims)
      throws InterruptedException {
    SimSwarm.Result swarm =
        SimSwarm.run(
            app.url(),
            sims,
            bodies,
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            settings.latencyWindow(),
            Duration.ofSeconds(40));
    System.out.printf(
        Locale.ROOT,
        "%,d emulated sims for %.0f s (heartbeat every 2 s, a chunk every second): %,d heartbeats"
            + " answered (offered about %,.0f/s), p50 %.1f ms, p99 %.1f ms, max %.1f ms; %,d"
            + " unanswered after %.1f s of drain; %,d of %,d chunks produced acknowledged;"
            + " refused: %s%n",
        swarm.sims(),
        swarm.windowSeconds(),
        swarm.heartbeats(),
        swarm.sims() / 2.0,
        swarm.latencies().millis(0.50),
        swarm.latencies().millis(0.99),
        swarm.latencies().maxMillis(),
        swarm.heartbeatsUnanswered(),
        swarm.drainSeconds(),
        swarm.chunks(),
        swarm.chunksProduced(),
        swarm.refused());
    return swarm;
  }

  private LostCheck lost(EmbeddedCascade app, List<byte[]> bodies, List<SimRef> sims)
      throws InterruptedException, SQLException, IOException {
    ChunkFlood.Result flood =
        ChunkFlood.run(
            app.url(),
            sims,
            bodies,
            settings.lostChunks(),
            FLOOD_IN_FLIGHT,
            settings.lostCap(),
            Duration.ofSeconds(30));
    Thread.sleep(500);
    Map<String, StoredChunks.Stored> stored =
        StoredChunks.read(app.dataDir().resolve("cascade.db"));
    long held = 0;
    long lost = 0;
    long extra = 0;
    for (int i = 0; i < sims.size(); i++) {
      StoredChunks.Stored chunks = stored.get(sims.get(i).id());
      BitSet seqs = chunks == null ? new BitSet() : chunks.seqs();
      int acked = (int) flood.acked()[i];
      int heldOfAcked = seqs.get(0, acked).cardinality();
      held += seqs.cardinality();
      lost += acked - heldOfAcked;
      extra += seqs.cardinality() - heldOfAcked;
    }
    String logs = checkLogs(app.url(), sims, flood, stored, 50);
    System.out.printf(
        Locale.ROOT,
        "%,d sims x %d chunk(s), at most %d requests open: %,d sent, %,d acknowledged (%,d sims"
            + " reached) in %.1f s%s; refused: %s%n"
            + "  cascade.db holds %,d of their chunks: %,d acknowledged but missing (lost), %,d"
            + " stored but not acknowledged; %s%n",
        sims.size(),
        settings.lostChunks(),
        FLOOD_IN_FLIGHT,
        flood.sent(),
        flood.ackedTotal(),
        flood.simsReached(),
        flood.seconds(),
        flood.capped() ? " (stopped by the " + settings.lostCap().toSeconds() + " s cap)" : "",
        flood.refused(),
        held,
        lost,
        extra,
        logs);
    return new LostCheck(flood, held, lost, extra, logs);
  }

  private void summary(
      LoadResult baseline,
      LoadResult heartbeat,
      LoadResult chunks,
      SimSwarm.Result swarm,
      LostCheck lost,
      double probeSingle,
      double probeGroup) {
    System.out.println();
    System.out.println("== summary ==");
    if (baseline != null) {
      System.out.printf(
          Locale.ROOT,
          "bare Javalin POST:        %,10.0f requests/s (the better of two measurements)%n",
          baseline.perSecond());
    }
    if (heartbeat != null) {
      System.out.printf(
          Locale.ROOT, "Cascade heartbeat:        %,10.0f requests/s%n", heartbeat.perSecond());
    }
    if (baseline != null && heartbeat != null) {
      double ratio = heartbeat.perSecond() / baseline.perSecond();
      System.out.printf(
          Locale.ROOT,
          "ratio heartbeat / bare:   %10.3f   (target >= %.1f: %s)%n",
          ratio,
          TARGET_RATIO,
          ratio >= TARGET_RATIO ? "met" : "NOT met, " + times(TARGET_RATIO / ratio) + " short");
      if (inProcessGenerator) {
        System.out.println(
            "  (the JDK generator runs in this JVM and caps the baseline far below what the server"
                + " can do: the ratio means little; install wrk)");
      }
    }
    if (chunks != null) {
      double rate = chunks.perSecond();
      System.out.printf(
          Locale.ROOT,
          "durable chunks:           %,10.0f chunks/s   (target >= %,.0f: %s)%n",
          rate,
          TARGET_CHUNKS_PER_SECOND,
          rate >= TARGET_CHUNKS_PER_SECOND
              ? "met"
              : "NOT met, " + times(TARGET_CHUNKS_PER_SECOND / rate) + " short");
    }
    if (swarm != null) {
      double p99 = swarm.latencies().millis(0.99);
      boolean met = p99 < TARGET_P99_MS && swarm.heartbeatsUnanswered() == 0;
      System.out.printf(
          Locale.ROOT,
          "heartbeat at %,d sims:    p50 %.1f ms, p99 %.1f ms   (target p99 < %.0f ms: %s)%n",
          swarm.sims(),
          swarm.latencies().millis(0.50),
          p99,
          TARGET_P99_MS,
          met ? "met" : "NOT met, " + times(p99 / TARGET_P99_MS) + " over");
    }
    if (lost != null) {
      ChunkFlood.Result flood = lost.flood();
      int sims = flood.acked().length;
      System.out.printf(
          Locale.ROOT,
          "chunks lost at %,d sims: %d of %,d acknowledged   (target 0: %s)%s%n",
          sims,
          lost.lost(),
          flood.ackedTotal(),
          lost.lost() == 0 ? "met" : "NOT met",
          flood.simsReached() == sims
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; only %,d of the %,d sims got a chunk within the cap",
                  flood.simsReached(),
                  sims));
    }
    System.out.printf(
        Locale.ROOT,
        "SQLite durable commits here: %,.0f/s of one row, %,.0f rows/s in commits of 100%n",
        probeSingle,
        probeGroup);
  }

  private static String times(double factor) {
    return String.format(Locale.ROOT, "%.1fx", factor);
  }

  /** Creates runs on the demo trace until {@code count} new sims exist; returns them. */
  private static List<SimRef> createSims(EmbeddedCascade app, SimTokens tokens, int count) {
    List<SimRef> sims = new ArrayList<>();
    List<String> configs = app.configs();
    while (sims.size() < count) {
      int left = count - sims.size();
      List<RunEntry> entries = new ArrayList<>();
      for (String config : configs) {
        int n = Math.min(64, left);
        if (n > 0) {
          entries.add(new RunEntry(config, n));
          left -= n;
        }
      }
      Run run = app.cascade.runs().create(app.trace.id(), entries);
      for (Sim sim : run.sims()) {
        sims.add(new SimRef(sim.id(), tokens.tokenFor(sim.id())));
      }
    }
    return sims;
  }

  /**
   * The emulator's whole output for the trace on {@code config}, cut after a newline into chunks of
   * at most {@code maxBytes}: what the benchmark's sims send, in order.
   */
  static List<byte[]> emulatorChunks(Path trace, String config, int maxBytes) throws IOException {
    Emulation emulation = Emulator.prepare(EmulatorOptions.of(trace, config).withSpeed(0));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Emulation.Piece piece = emulation.next(); piece != null; piece = emulation.next()) {
      all.writeBytes(piece.bytes());
    }
    byte[] log = all.toByteArray();
    List<byte[]> chunks = new ArrayList<>();
    int from = 0;
    while (from < log.length) {
      int to = Math.min(log.length, from + maxBytes);
      if (to < log.length) {
        int newline = to - 1;
        while (newline > from && log[newline] != '\n') {
          newline--;
        }
        if (newline > from) {
          to = newline + 1;
        }
      }
      chunks.add(Arrays.copyOfRange(log, from, to));
      from = to;
    }
    return chunks;
  }

  /**
   * Reads back, through {@code GET /api/sims/{id}/log}, the logs of up to {@code sample} sims whose
   * stored chunks are exactly the acknowledged ones, and compares their length with the bytes
   * acknowledged.
   */
  private static String checkLogs(
      String baseUrl,
      List<SimRef> sims,
      ChunkFlood.Result flood,
      Map<String, StoredChunks.Stored> stored,
      int sample)
      throws IOException, InterruptedException {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < sims.size(); i++) {
      StoredChunks.Stored held = stored.get(sims.get(i).id());
      if (flood.acked()[i] > 0 && held != null && held.seqs().cardinality() == flood.acked()[i]) {
        candidates.add(i);
      }
    }
    Collections.shuffle(candidates, new Random(1));
    int checked = 0;
    int wrong = 0;
    try (HttpClient client = HttpClient.newHttpClient()) {
      for (int index : candidates.subList(0, Math.min(sample, candidates.size()))) {
        HttpResponse<byte[]> response =
            client.send(
                HttpRequest.newBuilder(
                        URI.create(baseUrl + "/api/sims/" + sims.get(index).id() + "/log"))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        checked++;
        if (response.statusCode() != 200 || response.body().length != flood.ackedBytes()[index]) {
          wrong++;
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "GET /api/sims/{id}/log for %d of them: %d give back exactly the acknowledged bytes, %d"
            + " do not",
        checked,
        checked - wrong,
        wrong);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
