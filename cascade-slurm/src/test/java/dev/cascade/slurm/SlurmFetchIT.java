package dev.cascade.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.testkit.TestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fetch} mode on the real cluster: the job's view of the disk is a node scratch folder, not
 * the app's data dir, and eight replicas on the one node fetch the trace from the app once.
 */
final class SlurmFetchIT {

  private static final List<RunEntry> ENTRIES = List.of(new RunEntry("SM90_H100", 8));

  @TempDir Path dir;
  private SlurmLauncherSettings settings;

  @BeforeEach
  void cluster() {
    settings = SlurmCluster.settingsOrSkip();
  }

  @AfterEach
  void stopWhatIsLeft() {
    SlurmTestCleanup.stopEverythingUnder(settings, dir);
  }

  @Test
  void eightReplicasOnOneNode_fetchTheTraceOnceAndGiveTheLocalLaunchersResults() throws Exception {
    List<String> simulator = TestApp.agentCommand("--speed", "0");
    List<ConfigResult> local = TestApp.localResults(dir.resolve("local"), simulator, ENTRIES);

    Path scratch = dir.resolve("node-scratch");
    Path dataDir = dir.resolve("app");
    SlurmLauncherSettings fetch =
        settings.withTraces(SlurmLauncherSettings.TraceAccess.FETCH).withNodeScratch(scratch);
    try (SlurmLauncher launcher = new SlurmLauncher(fetch);
        TestApp app = TestApp.start(dataDir, launcher, simulator, 0, b -> b)) {
      Run run = app.awaitFinished(app.create(ENTRIES).id());

      TestApp.assertAllSucceeded(run);
      assertThat(app.cascade().results().compare(run.id())).isEqualTo(local);

      // Every sim worked in the node's scratch, none in the app's data dir.
      List<String> logs =
          run.sims().stream()
              .map(Sim::id)
              .map(id -> read(scratch.resolve("work/sims/" + id + ".out")))
              .toList();
      assertThat(run.sims())
          .allSatisfy(
              sim -> assertThat(dataDir.resolve("work/sims/" + sim.id() + ".out")).doesNotExist());
      assertThat(logs).filteredOn(log -> log.contains("cascade-agent: fetched trace")).hasSize(1);
      assertThat(logs).filteredOn(log -> log.contains("from the node's cache")).hasSize(7);
      try (var cached = Files.list(scratch.resolve("traces"))) {
        assertThat(cached.filter(Files::isDirectory).toList())
            .singleElement()
            .satisfies(
                trace ->
                    assertThat(trace.resolve("traces/kernelslist.g"))
                        .hasSameBinaryContentAs(
                            dataDir.resolve(
                                "s3/cascade/accelsim-traces/demo/traces/kernelslist.g")));
      }
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
