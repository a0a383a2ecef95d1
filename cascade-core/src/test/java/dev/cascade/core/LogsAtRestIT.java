package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.StatsListener;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four sims each send the real A100 log (8 kernels, 1.3 MiB) over the sim endpoints: the data
 * folder, database included, grows by at most 15% of the logs' raw size; every download is the log
 * byte for byte; every kernel's statistics are the ones the offline parser reads from the file.
 */
final class LogsAtRestIT {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Path A100_LOG =
      FIXTURES.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
  private static final int SIMS = 4;

  @TempDir Path dataDir;

  @Test
  void fourSimsOfTheRealLog_growTheDataFolderByAtMost15PercentOfTheirRawSize() throws Exception {
    Assumptions.assumeTrue(
        Files.isRegularFile(A100_LOG),
        "needs the fixtures at " + FIXTURES + " (beside the clone at ../shared/fixtures)");
    byte[] log = Files.readAllBytes(A100_LOG);
    try (TestServer cascade = new TestServer(dataDir)) {
      String runId =
          cascade.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", SIMS))).id();
      List<SimLaunch> sims = cascade.nextLaunches(SIMS);
      cascade.engine.storage().checkpoint();
      long before = folderBytes(dataDir);

      for (SimLaunch sim : sims) {
        cascade.sendLogAndSucceed(sim, log);
      }
      await()
          .atMost(TestServer.WAIT)
          .until(() -> cascade.engine.runs().get(runId).state() == RunState.SUCCEEDED);
      cascade.engine.storage().checkpoint();
      long grown = folderBytes(dataDir) - before;
      long raw = (long) SIMS * log.length;
      System.out.printf(
          "LogsAtRestIT: %d sims x %d bytes of log (raw %d bytes) grew the data folder by %d"
              + " bytes: %.1f%% of raw%n",
          SIMS, log.length, raw, grown, 100.0 * grown / raw);
      assertThat(grown).as("data folder growth in bytes").isLessThanOrEqualTo(raw * 15 / 100);

      RunStorage storage = cascade.engine.storage().storage(cascade.engine.runs().get(runId));
      System.out.printf(
          "LogsAtRestIT: the run's logs %d bytes raw, %d stored (%.1f%%); statistics %d bytes%n",
          storage.logBytes(),
          storage.logStoredBytes(),
          100.0 * storage.logStoredBytes() / storage.logBytes(),
          storage.statsStoredBytes());
      assertThat(storage.logBytes()).isEqualTo(raw);
      assertThat(storage.logStoredBytes()).isLessThanOrEqualTo(raw / 10);

      List<KernelStats> expected = offlineKernels();
      HttpClient http = HttpClient.newHttpClient();
      for (SimLaunch sim : sims) {
        HttpResponse<byte[]> download =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(cascade.url() + "/api/sims/" + sim.simId() + "/log"))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.body()).as("log of " + sim.simId()).isEqualTo(log);

        List<KernelResult> kernels = cascade.engine.runs().kernels(sim.simId());
        assertThat(kernels).hasSize(expected.size());
        for (int k = 0; k < expected.size(); k++) {
          assertThat(kernels.get(k).cycles()).isEqualTo(expected.get(k).cycles());
          assertThat(kernels.get(k).instructions()).isEqualTo(expected.get(k).instructions());
          assertThat(asDoubles(kernels.get(k).stats()))
              .as("statistics of kernel %d of %s", k, sim.simId())
              .isEqualTo(asDoubles(expected.get(k).stats()));
        }
      }
    }
  }

  private static List<KernelStats> offlineKernels() throws IOException {
    List<KernelStats> kernels = new ArrayList<>();
    KernelStatsParser.parse(
        A100_LOG,
        new StatsListener() {
          @Override
          public void onKernelFinished(KernelStats stats) {
            kernels.add(stats);
          }
        });
    return kernels;
  }

  private static Map<String, Double> asDoubles(Map<String, Number> stats) {
    Map<String, Double> doubles = new java.util.LinkedHashMap<>();
    stats.forEach((key, value) -> doubles.put(key, value.doubleValue()));
    return doubles;
  }

  private static long folderBytes(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              file -> {
                try {
                  return Files.size(file);
                } catch (IOException e) {
                  return 0; // a temporary file removed while walking
                }
              })
          .sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
