package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.cli.CliTestServer.WatchedOutput;
import dev.cascade.client.CascadeClient;
import dev.cascade.core.spi.SimLaunch;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade runs watch} on a run of more than 16 sims: one line per config instead of one per
 * sim, and each config's errors once.
 */
final class RunsWatchFoldIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @BeforeEach
  void start() throws Exception {
    cascade = new CliTestServer(dataDir);
  }

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void watch_largeRun_foldsReplicasIntoOneLinePerConfig() throws Exception {
    Result created =
        cascade.run("runs", "create", "demo", "SM90_H100:10", "SM90_H200:10", "--json");
    assertThat(created.exit()).as(created.err()).isZero();
    String id = JSON.readTree(created.out()).get("id").asText();
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(20);
    WatchedOutput out = new WatchedOutput();
    CompletableFuture<Result> watching =
        CompletableFuture.supplyAsync(() -> cascade.run(out, "runs", "watch", id, "--plain"));
    out.await("SM90_H200  [..........] 0/30 kernels  10 sims: ");

    for (int i = 0; i < 10; i++) {
      cascade.heartbeat(sims.get("SM90_H100#" + i));
    }
    out.await("SM90_H100  [..........] 0/30 kernels  10 sims: 10 running");
    for (int i = 0; i < 10; i++) {
      cascade.succeed(sims.get("SM90_H100#" + i));
      cascade.fail(sims.get("SM90_H200#" + i), "deadlock detected");
    }

    Result result = watching.get(CliTestServer.WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out())
        .contains("  SM90_H100  [##########] 30/30 kernels  10 sims: 10 succeeded")
        .contains("  SM90_H200  [..........] 0/30 kernels  10 sims: 10 failed")
        .contains("Run " + id + " partial: 10 succeeded, 10 failed")
        .contains("  SM90_H200: 10 sims failed: deadlock: deadlock detected")
        .doesNotContain("SM90_H100 #")
        .doesNotContain("SM90_H200 #");
  }

  @Test
  void watch_largeRunOnATerminal_redrawsOneLinePerConfigInPlace() throws Exception {
    Result created =
        cascade.run("runs", "create", "demo", "SM90_H100:10", "SM90_H200:10", "--json");
    String id = JSON.readTree(created.out()).get("id").asText();
    Map<String, SimLaunch> sims = cascade.nextLaunchesByName(20);
    StringWriter out = new StringWriter();
    RunWatcher watcher =
        new RunWatcher(
            CascadeClient.connect(URI.create(cascade.server.url()), null),
            id,
            new PrintWriter(out, true),
            true);
    watcher.tick = Duration.ofMillis(50);
    CompletableFuture<Integer> watching =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return watcher.watch();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    for (SimLaunch sim : sims.values()) {
      cascade.succeed(sim);
    }

    assertThat(watching.get(CliTestServer.WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
    String text = out.toString();
    assertThat(text)
        .contains("\033[3F\033[J")
        .contains(
            "  20 of 20 sims finished\n"
                + "  SM90_H100  [##########] 30/30 kernels  10 sims: 10 succeeded\n"
                + "  SM90_H200  [##########] 30/30 kernels  10 sims: 10 succeeded\n")
        .doesNotContain("SM90_H100 #");
  }
}
