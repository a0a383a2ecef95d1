package dev.cascade.bench;

import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.Run;
import dev.cascade.core.internal.store.Database;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server's read path (issue 14): {@code GET /api/runs/{id}} of a 512-sim run against {@code
 * /healthz} of the same server, the run's results (JSON and CSV) of 512 sims x 114 kernels against
 * reading the same rows raw over JDBC, both in this JVM; then the RSS of a server in a JVM of its
 * own ({@link ReadServer}) with 1,000 sims sending heartbeats and chunks, against the same server's
 * RSS once started, before any sim reported ({@link ReadMemory}).
 */
public final class ReadBenchmark {

  private ReadBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path root = BenchHost.root();
    Path work = BenchHost.work("read");
    Path fixtures =
        Path.of(
            System.getProperty("bench.fixtures", root.resolve("../shared/fixtures").toString()));
    int sims = Integer.getInteger("bench.read.sims", 512);
    int kernelCount = Integer.getInteger("bench.read.kernels", 114);
    int gets = Integer.getInteger("bench.read.gets", 30);
    int memorySims = Integer.getInteger("bench.read.memory.sims", 1000);
    int memorySeconds = Integer.getInteger("bench.read.memory.seconds", 20);
    String phases = System.getProperty("bench.read.phases", "all");
    BenchHost.printMachine();
    Goals goals = new Goals("read");
    Map<String, String> summary = new LinkedHashMap<>();

    if (phases.equals("all") || phases.contains("run")) {
      List<KernelStats> kernels =
          ReadState.kernels(
              fixtures.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log"),
              kernelCount);
      readRun(work, sims, kernels, gets, goals, summary);
      goals.save(BenchHost.work(root));
    }
    if (phases.equals("all") || phases.contains("memory")) {
      List<String> serverOptions =
          List.of(System.getProperty("bench.read.server.options", "").strip().split("\\s+"))
              .stream()
              .filter(option -> !option.isEmpty())
              .toList();
      ReadMemory.Result memory = ReadMemory.measure(work, memorySims, memorySeconds, serverOptions);
      boolean met = memory.peakKb() < 512 * 1024;
      String seen =
          String.format(
              Locale.ROOT,
              "peak RSS %.0f MB (VmHWM; %.0f MB at the end) with %,d sims for %d s, against %.0f MB"
                  + " once started with the sims created (%.2fx); %,d heartbeats, %,d chunks;"
                  + " server JVM options: %s",
              memory.peakKb() / 1024.0,
              memory.endKb() / 1024.0,
              memorySims,
              memorySeconds,
              memory.idleKb() / 1024.0,
              (double) memory.peakKb() / memory.idleKb(),
              memory.swarm().heartbeats(),
              memory.swarm().chunks(),
              serverOptions.isEmpty() ? "none" : String.join(" ", serverOptions));
      goals.record(GoalRow.SERVER_MEMORY_1000, seen, met);
      summary.put("server memory, 1,000 sims (< 512 MB RSS)", (met ? "met: " : "NOT met: ") + seen);
      goals.save(BenchHost.work(root));
    }
    System.out.println("== summary ==");
    summary.forEach((what, seen) -> System.out.println(what + ": " + seen));
  }

  private static void readRun(
      Path work,
      int simCount,
      List<KernelStats> kernels,
      int gets,
      Goals goals,
      Map<String, String> summary)
      throws IOException, InterruptedException, SQLException {
    try (EmbeddedCascade app =
            EmbeddedCascade.start(
                work.resolve("data"), new GatedLauncher(), List.of("true"), Map.of());
        Database store = Database.open(app.dataDir().resolve("cascade.db"))) {
      List<GpuConfig> configs =
          app.cascade.configs().list().stream()
              .filter(GpuConfig::usable)
              .limit(Math.max(1, simCount / ReadState.REPLICAS))
              .toList();
      long start = System.nanoTime();
      Run run = ReadState.write(store, app.trace.id(), configs, kernels);
      System.out.printf(
          Locale.ROOT,
          "state: run %s of %d sims (%d configs; the last still running), %d kernels per"
              + " succeeded sim, written in %.1f s%n",
          run.id(),
          run.sims().size(),
          configs.size(),
          kernels.size(),
          (System.nanoTime() - start) / 1e9);
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      String base = app.url();
      Latencies healthz = time(http, base + "/healthz", gets * 3, gets);
      Latencies runGet = time(http, base + "/api/runs/" + run.id(), 5, gets);
      Latencies healthzAfter = time(http, base + "/healthz", gets, gets);
      healthz.addAll(healthzAfter);
      int resultRounds = Math.max(5, gets / 3);
      Latencies resultsJson =
          time(http, base + "/api/runs/" + run.id() + "/results", 2, resultRounds);
      Latencies resultsCsv =
          time(http, base + "/api/runs/" + run.id() + "/results.csv", 2, resultRounds);
      Latencies raw = new Latencies();
      for (int i = 0; i < resultRounds + 2; i++) {
        long t = System.nanoTime();
        long rows = rawRows(store, run);
        if (i >= 2) {
          raw.add(System.nanoTime() - t);
        }
        if (rows == 0) {
          throw new IllegalStateException("no kernel rows were stored");
        }
      }
      int bytes = body(http, base + "/api/runs/" + run.id()).length();
      System.out.printf(
          Locale.ROOT,
          "GET /api/runs/{id} (%d sims, %,d bytes): p50 %.1f ms, p90 %.1f ms; /healthz p50 %.2f"
              + " ms%n",
          run.sims().size(),
          bytes,
          runGet.millis(0.5),
          runGet.millis(0.9),
          healthz.millis(0.5));
      System.out.printf(
          Locale.ROOT,
          "results: JSON p50 %.0f ms, CSV p50 %.0f ms; the same kernel rows read raw over JDBC p50"
              + " %.0f ms%n",
          resultsJson.millis(0.5),
          resultsCsv.millis(0.5),
          raw.millis(0.5));
      boolean runMet = runGet.millis(0.5) < 100;
      String runSeen =
          String.format(
              Locale.ROOT,
              "p50 %.1f ms (p90 %.1f ms) for %d sims, against /healthz p50 %.2f ms (%.0fx)",
              runGet.millis(0.5),
              runGet.millis(0.9),
              run.sims().size(),
              healthz.millis(0.5),
              runGet.millis(0.5) / healthz.millis(0.5));
      goals.record(GoalRow.RUN_GET_512, runSeen, runMet);
      summary.put("GET /api/runs/{id} (p50 < 100 ms)", (runMet ? "met: " : "NOT met: ") + runSeen);
      double slower = Math.max(resultsJson.millis(0.5), resultsCsv.millis(0.5));
      boolean resultsMet = slower < 1000;
      String resultsSeen =
          String.format(
              Locale.ROOT,
              "JSON p50 %.0f ms, CSV p50 %.0f ms for %d sims x %d kernels, against the raw JDBC read"
                  + " of the same rows p50 %.0f ms (%.1fx)",
              resultsJson.millis(0.5),
              resultsCsv.millis(0.5),
              run.sims().size(),
              kernels.size(),
              raw.millis(0.5),
              slower / raw.millis(0.5));
      goals.record(GoalRow.RESULTS_512, resultsSeen, resultsMet);
      summary.put("results (< 1 s)", (resultsMet ? "met: " : "NOT met: ") + resultsSeen);
    }
  }

  /** Round trips of {@code rounds} GETs of {@code url}, one at a time, after {@code warmup}. */
  private static Latencies time(HttpClient http, String url, int warmup, int rounds)
      throws IOException, InterruptedException {
    Latencies latencies = new Latencies();
    for (int i = 0; i < warmup + rounds; i++) {
      long start = System.nanoTime();
      body(http, url);
      if (i >= warmup) {
        latencies.add(System.nanoTime() - start);
      }
    }
    return latencies;
  }

  private static String body(HttpClient http, String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "GET " + url + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** The rows the results are made from, read raw: the floor any results path can reach. */
  private static long rawRows(Database store, Run run) {
    List<String> ids = new ArrayList<>();
    run.sims().forEach(sim -> ids.add(sim.id()));
    return store.read(
        (Connection connection) -> {
          long count = 0;
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT sim_id, position, name, instance, cycles, instructions FROM sim_kernels"
                      + " WHERE sim_id = ? ORDER BY position")) {
            for (String id : ids) {
              select.setString(1, id);
              try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                  count += rows.getLong(5) > 0 ? 1 : 0;
                  rows.getString(3);
                }
              }
            }
          }
          return count;
        });
  }
}
