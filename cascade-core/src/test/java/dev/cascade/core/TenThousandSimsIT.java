package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.FleetRun;
import dev.cascade.agent.emulator.TestTraces;
import dev.cascade.core.testkit.FleetLauncher;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stress test of issue 14: {@value #DEFAULT_SIMS} emulated sims (or {@code
 * -Dcascade.stress.sims=N}) through one Cascade server. The app launches them as runs of 64
 * replicas per config through {@link FleetLauncher}, which hands each sim to one running {@link
 * EmulatorFleet} in this JVM; each sim emulates a two-kernel trace and reports over HTTP like an
 * agent (chunks in order, heartbeats, the final report). Then every sim must have succeeded with
 * its two kernels' results parsed, and every chunk the app acknowledged must be in the log it
 * serves back, byte for byte. Not timed: it prints what it saw (sims per minute, chunks per second,
 * heartbeat round trips) and asserts none of it.
 */
final class TenThousandSimsIT {

  private static final int DEFAULT_SIMS = 10_000;
  private static final int SIMS = Integer.getInteger("cascade.stress.sims", DEFAULT_SIMS);
  private static final int KERNELS = 2;
  private static final List<String> CONFIGS = List.of("SM90_H100", "SM90_H200");

  /** Simulated cycles per wall second: each sim runs about a second, so sims overlap. */
  private static final double SPEED = 20_000;

  /** About half a sim's output, so each sim sends two chunks or more, in order. */
  private static final int CHUNK_BYTES = Integer.getInteger("cascade.stress.chunkBytes", 12 << 10);

  /** The fleet's requests open at once: each holds a connection, two descriptors in this JVM. */
  private static final int IN_FLIGHT =
      Integer.getInteger("cascade.stress.inFlight", EmulatorFleet.DEFAULT_MAX_IN_FLIGHT);

  private static final Duration WAIT = Duration.ofMinutes(15);

  @TempDir Path dir;

  /** Each run entry's sims in one batch, as a cluster's launcher takes them. */
  private final FleetLauncher launcher = FleetLauncher.builder().speed(SPEED).inBatches().build();

  private final ByteArrayOutputStream fleetLog = new ByteArrayOutputStream();
  private final Map<String, Sent> sent = new ConcurrentHashMap<>();
  private Cascade cascade;
  private FleetRun fleet;

  /** What one sim had acknowledged: its bytes' digest and length, in chunk order. */
  private static final class Sent {
    final MessageDigest digest = sha256();
    long bytes;
    long nextSeq;
  }

  @AfterEach
  void tearDown() {
    try {
      if (fleet != null) {
        fleet.close();
      }
    } finally {
      if (cascade != null) {
        cascade.close();
      }
    }
  }

  @Test
  void everySimFinishes_andEveryAcknowledgedChunkIsHeld() throws Exception {
    long began = System.nanoTime();
    start();
    fleet =
        EmulatorFleet.builder()
            .mainUrl(URI.create(cascade.server().orElseThrow().url()))
            .heartbeatInterval(Duration.ofSeconds(2))
            .chunks(CHUNK_BYTES, Duration.ofSeconds(1))
            .backoff(Duration.ofMillis(100), Duration.ofSeconds(2))
            .maxInFlight(IN_FLIGHT)
            .onAccepted(this::accepted)
            .log(new PrintStream(fleetLog, true, StandardCharsets.UTF_8))
            .build()
            .start();
    launcher.sendTo(fleet);
    long up = System.nanoTime();

    List<String> runIds = createRuns();
    long created = System.nanoTime();
    await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> fleet.added() == SIMS);
    long launched = System.nanoTime();
    EmulatorFleet.Report report = fleet.await(SIMS, WAIT);
    long finished = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "TenThousandSimsIT: %,d sims in %d runs; server up in %.1f s, runs created in %.1f s,"
            + " every sim launched %.1f s later; fleet: %s%n"
            + "  %.0f sims/min, %.0f chunks/s, %.0f heartbeats/s over %.1f s of fleet time%n",
        SIMS,
        runIds.size(),
        (up - began) / 1e9,
        (created - up) / 1e9,
        (launched - created) / 1e9,
        report.summary(),
        report.succeeded() / (report.wall().toNanos() / 60e9),
        report.chunks() / (report.wall().toNanos() / 1e9),
        report.heartbeats() / (report.wall().toNanos() / 1e9),
        report.wall().toNanos() / 1e9);

    fleetLog().lines().filter(line -> line.contains("trying again")).forEach(System.out::println);

    assertThat(report.succeeded()).as(this::fleetLog).isEqualTo(SIMS);
    assertThat(report.lostChunks()).as(this::fleetLog).isZero();
    assertThat(sent).hasSize(SIMS);

    int sims = 0;
    for (String runId : runIds) {
      Run run = cascade.runs().get(runId);
      assertThat(run.state()).as("run %s", runId).isEqualTo(RunState.SUCCEEDED);
      for (Sim sim : run.sims()) {
        assertThat(sim.state()).as("sim %s", sim.id()).isEqualTo(SimState.SUCCEEDED);
        sims++;
      }
      for (ConfigResult config : cascade.results().compare(runId)) {
        assertThat(config.succeeded())
            .as("%s of %s", config.gpuConfig(), runId)
            .isEqualTo(config.replicas());
        assertThat(config.kernels()).as("%s of %s", config.gpuConfig(), runId).hasSize(KERNELS);
        for (KernelComparison kernel : config.kernels()) {
          assertThat(kernel.n()).isEqualTo(config.replicas());
          assertThat(kernel.cycles().mean()).isPositive();
        }
      }
    }
    assertThat(sims).isEqualTo(SIMS);
    long checked = checkLogs(cascade.server().orElseThrow().url());
    System.out.printf(
        Locale.ROOT,
        "TenThousandSimsIT: %,d logs (%,d bytes) read back and equal to what was acknowledged;"
            + " sims finished %.1f s after the runs were created; %.1f s in all%n",
        SIMS,
        checked,
        (finished - created) / 1e9,
        (System.nanoTime() - began) / 1e9);
  }

  private void start() throws Exception {
    Path dataDir = dir.resolve("data");
    Path trace = dataDir.resolve("s3/cascade/accelsim-traces/stress");
    TestTraces.write(
        trace.resolve("traces"),
        List.of(TestTraces.kernel("_Z4axpyPfS_", 32), TestTraces.kernel("_Z6reducePf", 8)));
    Files.writeString(
        trace.resolve("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\"}");
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .maxLaunches(8)
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .finishedStopDelay(Duration.ofSeconds(1))
            .simCommand(List.of("cascade", "emulate"))
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(0).withToken(null))
            .build()
            .start();
    Trace ready = cascade.traces().await("stress", Duration.ofSeconds(60));
    assertThat(ready.state()).isEqualTo(TraceState.READY);
  }

  /** Runs of up to 64 replicas of each config (a run's limit) until {@link #SIMS} sims exist. */
  private List<String> createRuns() {
    List<String> runIds = new ArrayList<>();
    int left = SIMS;
    while (left > 0) {
      List<RunEntry> entries = new ArrayList<>();
      for (String config : CONFIGS) {
        int count = Math.min(RunEntry.MAX_COUNT, left);
        if (count > 0) {
          entries.add(new RunEntry(config, count));
          left -= count;
        }
      }
      runIds.add(cascade.runs().create("stress", entries).id());
    }
    return runIds;
  }

  /** On the fleet's loop: chunks are acknowledged one at a time, in order. */
  private void accepted(EmulatorFleet.Member member, long seq, byte[] bytes) {
    Sent sim = sent.computeIfAbsent(member.simId(), id -> new Sent());
    if (seq != sim.nextSeq) {
      throw new AssertionError(
          "sim " + member.simId() + ": chunk " + seq + " acknowledged after " + sim.nextSeq);
    }
    sim.nextSeq++;
    sim.digest.update(bytes);
    sim.bytes += bytes.length;
  }

  /** Reads every sim's log back through the API; returns the bytes compared. */
  private long checkLogs(String url) throws Exception {
    long bytes = 0;
    try (HttpClient client = HttpClient.newHttpClient();
        ExecutorService readers = Executors.newFixedThreadPool(4)) {
      List<Future<Long>> checks = new ArrayList<>();
      for (Map.Entry<String, Sent> entry : sent.entrySet()) {
        checks.add(
            readers.submit(
                () -> {
                  HttpResponse<byte[]> response =
                      client.send(
                          HttpRequest.newBuilder(
                                  URI.create(url + "/api/sims/" + entry.getKey() + "/log"))
                              .build(),
                          HttpResponse.BodyHandlers.ofByteArray());
                  assertThat(response.statusCode()).isEqualTo(200);
                  byte[] log = response.body();
                  Sent acknowledged = entry.getValue();
                  assertThat(log.length)
                      .as("bytes of %s's log", entry.getKey())
                      .isEqualTo(acknowledged.bytes);
                  assertThat(HexFormat.of().formatHex(sha256().digest(log)))
                      .as("%s's log", entry.getKey())
                      .isEqualTo(HexFormat.of().formatHex(acknowledged.digest.digest()));
                  return (long) log.length;
                }));
      }
      for (Future<Long> check : checks) {
        bytes += check.get();
      }
    }
    return bytes;
  }

  /** The fleet's last lines, where it says which sims gave up and why. */
  private String fleetLog() {
    String log = fleetLog.toString(StandardCharsets.UTF_8);
    return log.substring(Math.max(0, log.length() - 4000));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
