package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.core.testkit.Rfc4180;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The done-when sweep: {@code -gpgpu_n_clusters} x 2 values and the L2 x 2 sizes on the
 * demo trace, 4 variants x 2 replicas, each sim a real agent process running the emulator on the
 * variant's effective config folder.
 */
final class SweepWithEmulatorIT {

  private static final Duration WAIT = Duration.ofMinutes(3);

  /** SM90_H100's L2 per sub-partition: 320 sets of 16 128-byte lines (50 MiB over 80). */
  static final String L2_FULL = "S:320:128:16,L:B:m:L:X,A:192:4,32:0,32";

  /** A sixteenth of it. */
  static final String L2_SMALL = "S:20:128:16,L:B:m:L:X,A:192:4,32:0,32";

  @TempDir Path dir;
  private final LocalLauncher launcher = new LocalLauncher();
  private Cascade cascade;

  @BeforeEach
  void start() throws Exception {
    Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(), () -> launcher.unavailableReason().orElse(""));
    Path dataDir = dir.resolve("data");
    DemoTraces.seedIfEmpty(dataDir);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-cp",
            SimAgentMain.classPath(),
            SimAgentMain.class.getName(),
            "--heartbeat-millis",
            "200",
            "--chunk-millis",
            "200",
            "--emulate",
            "--speed",
            "0"));
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .simCommand(command)
            .simEnvironment(Map.of())
            .build()
            .start();
    await()
        .atMost(WAIT)
        .until(
            () ->
                cascade
                    .traces()
                    .find(DemoTraces.DEMO_ID)
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));
  }

  @AfterEach
  void stop() {
    if (cascade == null) {
      return;
    }
    try {
      for (Run run : cascade.runs().list()) {
        for (Sim sim : run.sims()) {
          if (sim.launcherRef() != null) {
            launcher.stop(sim.launcherRef());
          }
        }
      }
    } finally {
      cascade.close();
    }
  }

  @Test
  void sweepOfClustersAndL2_onTheDemo_namesEachVariant_pivotsInTheCsv_andMovesTheCycles()
      throws Exception {
    Map<String, List<String>> sweep = new LinkedHashMap<>();
    sweep.put("-gpgpu_n_clusters", List.of("66", "132"));
    sweep.put("-gpgpu_cache:dl2", List.of(L2_SMALL, L2_FULL));
    Run created =
        cascade
            .runs()
            .create(DemoTraces.DEMO_ID, List.of(new RunEntry("SM90_H100", 2).withSweep(sweep)));
    assertThat(created.sims()).hasSize(8);
    await().atMost(WAIT).until(() -> cascade.runs().get(created.id()).state() != RunState.ACTIVE);
    Run run = cascade.runs().get(created.id());
    assertThat(run.sims())
        .allSatisfy(
            sim ->
                assertThat(sim.state())
                    .as(() -> sim.gpuConfig() + ": " + sim.error())
                    .isEqualTo(SimState.SUCCEEDED));

    // Results name each variant's parameters.
    List<ConfigResult> results = cascade.results().compare(run.id());
    assertThat(results).hasSize(4);
    Map<String, Double> cycles = new HashMap<>();
    for (ConfigResult result : results) {
      assertThat(result.base()).isEqualTo("SM90_H100");
      assertThat(result.params()).containsOnlyKeys("-gpgpu_n_clusters", "-gpgpu_cache:dl2");
      assertThat(result.succeeded()).isEqualTo(2);
      assertThat(result.total().cycles().stdev()).isZero(); // the emulator without jitter
      cycles.put(
          result.params().get("-gpgpu_n_clusters")
              + "/"
              + (result.params().get("-gpgpu_cache:dl2").equals(L2_FULL) ? "full" : "small"),
          result.total().cycles().mean());
    }
    // The model: half the SMs never makes a kernel faster, and on the demo (more blocks than
    // 66 SMs hold at once) it makes it slower; a smaller L2 never makes it faster.
    assertThat(cycles.get("66/full")).isGreaterThan(cycles.get("132/full"));
    assertThat(cycles.get("66/small")).isGreaterThan(cycles.get("132/small"));
    assertThat(cycles.get("132/small")).isGreaterThanOrEqualTo(cycles.get("132/full"));
    assertThat(cycles.get("66/small")).isGreaterThanOrEqualTo(cycles.get("66/full"));

    // The emulator's log says what the variant set is applied: 66 SMs.
    Sim first = run.sims().get(0);
    String log;
    try (var in = cascade.runs().log(first.id())) {
      log = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    assertThat(log).contains("-gpgpu_n_clusters").contains("(sm_90, 66 SMs, 1980 MHz");

    // The tidy CSV has a column per swept parameter, so it pivots by them.
    List<List<String>> rows = Rfc4180.parse(cascade.results().simsCsv(run.id()));
    List<String> header = rows.get(0);
    int clusters = header.indexOf("-gpgpu_n_clusters");
    int l2 = header.indexOf("-gpgpu_cache:dl2");
    int base = header.indexOf("base_config");
    assertThat(clusters).isPositive();
    assertThat(l2).isPositive();
    assertThat(base).isPositive();
    Map<String, Integer> rowsByCell = new HashMap<>();
    for (List<String> cells : rows.subList(1, rows.size())) {
      assertThat(cells.get(base)).isEqualTo("SM90_H100");
      rowsByCell.merge(cells.get(clusters) + "/" + cells.get(l2), 1, Integer::sum);
    }
    assertThat(rowsByCell).hasSize(4);
    int kernels = cascade.traces().find(DemoTraces.DEMO_ID).orElseThrow().kernelCount();
    assertThat(rowsByCell.values()).allMatch(count -> count == 2 * kernels);
  }
}
