package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cascade.agent.SimContract;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Pacer;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.LongTraces;
import dev.cascade.core.testkit.TestEngines;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's check: on a long trace made from the real fixtures (24 layers, 1,176 launches), a
 * sampled run on the emulator simulates at most 10% of the warp instructions, its estimated total
 * cycles are within 3% of the full run's and inside its own interval on two configs, and the
 * speedup between them is within 2% of the full runs'. Each sim is played here: the emulator runs
 * in this JVM on the trace folder the app gives the sim, and its output is reported as chunks.
 */
final class SampledRunTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Duration WAIT = Duration.ofMinutes(3);

  /**
   * The fixtures' H100 and a copy that launches kernels in 1,000 cycles instead of 3,000: the
   * emulator gives H100 and H200 the same cycles on these latency-bound kernels, so a speedup
   * between them would check nothing.
   */
  private static final List<String> CONFIGS = List.of("SM90_H100", "SM90_H100_FASTLAUNCH");

  @TempDir Path dataDir;
  private RecordingLauncher launcher;
  private Engine engine;
  private final Set<String> played = new HashSet<>();
  private int launches;

  @BeforeEach
  void writeTheLongTrace() throws Exception {
    Path real = FIXTURES.resolve("accelsim/real-traces");
    assumeTrue(
        Files.isDirectory(real.resolve("flashinfer-gemm"))
            && Files.isDirectory(real.resolve("flashinfer-prefill")),
        "the shared Accel-Sim fixtures are not here");
    launches =
        LongTraces.write(
            real,
            dev.cascade.core.testkit.TestTraces.folder(dataDir, "llm24"),
            dataDir.resolve("parts"));
    Path configs = dataDir.resolve("configs");
    copyFolder(FIXTURES.resolve("accelsim/tested-cfgs/SM90_H100"), configs.resolve("SM90_H100"));
    Path fast = configs.resolve("SM90_H100_FASTLAUNCH");
    copyFolder(FIXTURES.resolve("accelsim/tested-cfgs/SM90_H100"), fast);
    Path config = fast.resolve("gpgpusim.config");
    Files.writeString(
        config,
        Files.readString(config)
            .replace("-gpgpu_kernel_launch_latency  3000", "-gpgpu_kernel_launch_latency  1000"));
    launcher = new RecordingLauncher();
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, launcher)
                .catalog(GpuConfigCatalog.fromFolder(configs))
                .settings(),
            "llm24",
            WAIT);
  }

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void sampledRun_estimatesTheWholeTraceWithin3Percent_insideItsInterval_simulatingAtMost10Percent()
      throws Exception {
    assertThat(launches).isGreaterThanOrEqualTo(1000);
    SamplingPlan plan = engine.traces().sampling("llm24", Sampling.of(0.05));
    System.out.printf(
        Locale.ROOT,
        "plan: %s, %d strata (kernels %s), predicted error %s%n",
        plan.summary(),
        plan.strata().size(),
        plan.window().text(),
        SamplingPlan.percent(plan.predictedError()));
    assertThat(plan.kernels()).isEqualTo(launches);
    assertThat(plan.simulatedShare()).isLessThanOrEqualTo(0.10);

    Run full =
        engine
            .runs()
            .create(
                "llm24",
                CONFIGS.stream().map(c -> new RunEntry(c, 1)).toList(),
                RunOptions.defaults());
    playUntilDone(full.id());
    Run sampled =
        engine
            .runs()
            .create(
                "llm24",
                CONFIGS.stream().map(c -> new RunEntry(c, 1, Sampling.of(0.05))).toList(),
                RunOptions.defaults());
    playUntilDone(sampled.id());

    List<ConfigResult> fullResults = engine.results().compare(full.id());
    List<ConfigResult> sampledResults = engine.results().compare(sampled.id());
    for (int i = 0; i < CONFIGS.size(); i++) {
      ConfigResult whole = fullResults.get(i);
      ConfigResult estimate = sampledResults.get(i);
      double fullCycles = whole.total().cycles().mean();
      SampledEstimate sampling = estimate.sampling();
      assertThat(sampling).as("the sampled result says how it was estimated").isNotNull();
      SampledEstimate.Interval cycles = sampling.measures().get("cycles");
      double error = cycles.estimate() / fullCycles - 1;
      System.out.printf(
          Locale.ROOT,
          "%s: full %.0f cycles, estimate %.0f (%s), error %+.3f%%, interval [%.0f, %.0f]%n",
          CONFIGS.get(i),
          fullCycles,
          cycles.estimate(),
          sampling.summary(),
          error * 100,
          cycles.low(),
          cycles.high());
      assertThat(estimate.kernels()).hasSize(plan.simulatedKernels());
      assertThat(sampling.simulatedShare()).isLessThanOrEqualTo(0.10);
      assertThat(Math.abs(error)).isLessThanOrEqualTo(0.03);
      assertThat(cycles.contains(fullCycles))
          .as("the full run's cycles inside the interval")
          .isTrue();
      assertThat(estimate.total().cycles().mean()).isEqualTo(cycles.estimate());
      assertThat(estimate.notes().getFirst()).startsWith("estimated from ");
    }
    double fullSpeedup =
        fullResults.get(0).total().cycles().mean() / fullResults.get(1).total().cycles().mean();
    double sampledSpeedup =
        sampledResults.get(0).total().cycles().mean()
            / sampledResults.get(1).total().cycles().mean();
    System.out.printf(
        Locale.ROOT,
        "speedup of the fast-launch H100 over H100: full %.4f, sampled %.4f, difference %+.3f%%%n",
        fullSpeedup,
        sampledSpeedup,
        (sampledSpeedup / fullSpeedup - 1) * 100);
    assertThat(sampledSpeedup / fullSpeedup - 1).isCloseTo(0, within(0.02));

    // Per-kernel reuse: sampled with another target (another plan, so no earlier sim ran the
    // same window) and reuse, every representative is taken from the full run's sims (same
    // trace, config and simulator): nothing launches.
    SamplingPlan finer = engine.traces().sampling("llm24", Sampling.of(0.01));
    assertThat(finer.window()).isNotEqualTo(plan.window());
    int launched = launcher.launches.size();
    Run reused =
        engine
            .runs()
            .create(
                "llm24",
                CONFIGS.stream().map(c -> new RunEntry(c, 1, Sampling.of(0.01))).toList(),
                RunOptions.defaults().withReuse(true));
    await().atMost(WAIT).until(() -> engine.runs().get(reused.id()).state() == RunState.SUCCEEDED);
    assertThat(launcher.launches).hasSize(launched);
    List<String> fullSims = engine.runs().get(full.id()).sims().stream().map(Sim::id).toList();
    assertThat(engine.runs().get(reused.id()).sims())
        .allSatisfy(sim -> assertThat(sim.provenance().reusedFrom()).isIn(fullSims));
    List<ConfigResult> reusedResults = engine.results().compare(reused.id());
    for (int i = 0; i < CONFIGS.size(); i++) {
      double fullCycles = fullResults.get(i).total().cycles().mean();
      assertThat(reusedResults.get(i).kernels()).hasSize(finer.simulatedKernels());
      assertThat(reusedResults.get(i).total().cycles().mean() / fullCycles - 1)
          .isCloseTo(0, within(0.03));
    }
    System.out.printf(
        Locale.ROOT,
        "reused: a sampled run (%s) after the full run launched %d sims%n",
        finer.summary(),
        launcher.launches.size() - launched);

    // Validation: the whole trace once on H100, taken from the full run above (nothing launches).
    int before = launcher.launches.size();
    Run validated =
        engine
            .runs()
            .create(
                "llm24",
                List.of(new RunEntry("SM90_H100", 1, Sampling.of(0.05).withValidate(true))),
                RunOptions.defaults());
    String validationRun = validated.entries().getFirst().sampling().validationRun();
    assertThat(validationRun).isNotNull();
    playUntilDone(validated.id());
    assertThat(launcher.launches.size() - before)
        .as("only the sampled sim launches; the validation reuses the full run's sim")
        .isEqualTo(1);
    SampledEstimate.Validation validation =
        engine.results().compare(validated.id()).getFirst().sampling().validation();
    System.out.printf(
        Locale.ROOT,
        "validated: real error %+.3f%%, predicted interval ±%s%n",
        validation.realError() * 100,
        SamplingPlan.percent(
            engine.results().compare(validated.id()).getFirst().sampling().cyclesInterval()));
    assertThat(validation.runId()).isEqualTo(validationRun);
    assertThat(validation.fullCycles()).isEqualTo(fullResults.getFirst().total().cycles().mean());
    assertThat(Math.abs(validation.realError())).isLessThanOrEqualTo(0.03);
  }

  @Test
  void aSampledSweep_simulatesThePlanOnEachVariant_andEstimatesEach() throws Exception {
    SamplingPlan plan = engine.traces().sampling("llm24", Sampling.of(0.05));
    RunEntry swept =
        new RunEntry("SM90_H100", 1, Sampling.of(0.05))
            .withSweep(java.util.Map.of("-gpgpu_kernel_launch_latency", List.of("1000", "3000")));

    Run run = engine.runs().create("llm24", List.of(swept), RunOptions.defaults());
    playUntilDone(run.id());

    assertThat(run.sims())
        .allSatisfy(sim -> assertThat(sim.kernels()).isEqualTo(plan.window().text()));
    List<ConfigResult> results = engine.results().compare(run.id());
    assertThat(results)
        .extracting(ConfigResult::gpuConfig)
        .containsExactly(
            "SM90_H100 -gpgpu_kernel_launch_latency=1000",
            "SM90_H100 -gpgpu_kernel_launch_latency=3000");
    for (ConfigResult result : results) {
      assertThat(result.base()).isEqualTo("SM90_H100");
      assertThat(result.sampling()).as(result.gpuConfig() + " estimated").isNotNull();
      assertThat(result.total().cycles().mean())
          .isEqualTo(result.sampling().measures().get("cycles").estimate());
    }
    // The variant that launches kernels sooner is estimated faster over the whole trace.
    assertThat(results.get(0).total().cycles().mean())
        .isLessThan(results.get(1).total().cycles().mean());
  }

  /** Plays every launched sim of the run (emulating it here), then waits for it to finish. */
  private void playUntilDone(String runId) throws Exception {
    int sims = engine.runs().get(runId).sims().size();
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine.runs().get(runId).sims().stream()
                    .allMatch(
                        sim ->
                            sim.state().isFinished()
                                || launcher.launches.stream()
                                    .anyMatch(l -> l.simId().equals(sim.id()))));
    for (SimLaunch launch : List.copyOf(launcher.launches)) {
      if (launch.runId().equals(runId) && played.add(launch.simId())) {
        play(launch);
      }
    }
    await().atMost(WAIT).until(() -> engine.runs().get(runId).state() == RunState.SUCCEEDED);
    assertThat(engine.runs().get(runId).sims()).hasSize(sims);
  }

  private static void copyFolder(Path from, Path to) throws java.io.IOException {
    Files.createDirectories(to);
    try (var files = Files.list(from)) {
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    }
  }

  private void play(SimLaunch launch) throws Exception {
    SimContract contract = launch.contract();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        Emulator.run(
            Emulator.prepare(
                EmulatorOptions.builder()
                    .trace(contract.traceDir())
                    .config(contract.gpuConfigDir().toString())
                    .replica(contract.replica())
                    .speed(0)
                    .build()),
            0,
            out,
            Pacer.system());
    assertThat(exit).isZero();
    byte[] log = out.toByteArray();
    engine.reports().heartbeat(launch.simId(), Heartbeat.running(0));
    int chunkBytes = 1 << 20;
    int chunks = 0;
    for (int from = 0; from < log.length; from += chunkBytes) {
      engine
          .reports()
          .putChunk(
              launch.simId(),
              chunks++,
              java.util.Arrays.copyOfRange(log, from, Math.min(log.length, from + chunkBytes)));
    }
    engine.reports().heartbeat(launch.simId(), new Heartbeat(SimState.SUCCEEDED, null, 0, chunks));
  }
}
