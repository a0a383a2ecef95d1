package dev.cascade.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogSummary;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Pacer;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestEngines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run picks one CUDA context of a trace that has two (Accel-Sim 2.0's tracer writes a list per
 * context; the post-processor keeps the first as {@code kernelslist.g} and the other as {@code
 * kernelslist_ctx_0x2.g}): the sims simulate that context's list, with the emulator here.
 */
final class CudaContextRunTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private RecordingLauncher launcher;
  private Engine engine;

  /** A warp of {@code instructions} full-mask ALU instructions in one thread block. */
  private static String kernel(int id, int instructions) {
    StringBuilder text =
        new StringBuilder(
            "-kernel name = kernel_"
                + id
                + "\n-kernel id = "
                + id
                + "\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"
                + "-binary version = 90\n-cuda stream id = 0\n\n#BEGIN_TB\n\n"
                + "thread block = 0,0,0\n\nwarp = 0\ninsts = "
                + instructions
                + "\n");
    for (int i = 0; i < instructions - 1; i++) {
      text.append(String.format("%04x ffffffff 1 R1 IADD3 2 R1 R2 0 0%n", i * 16));
    }
    text.append(String.format("%04x ffffffff 0 EXIT 0 0 0%n", (instructions - 1) * 16));
    return text.append("\n#END_TB\n").toString();
  }

  @BeforeEach
  void startWithATwoContextTrace() throws IOException {
    Path trace = TestTraces.writeReady(dataDir, "two-ctx", 3);
    Path traces = trace.resolve("traces");
    Files.writeString(traces.resolve("kernel-1.traceg"), kernel(1, 3));
    Files.writeString(traces.resolve("kernel-2.traceg"), kernel(2, 5));
    Files.writeString(traces.resolve("kernel-3.traceg"), kernel(3, 11));
    // The first context runs kernels 1 and 2; the second, kernel 3 after a memcpy.
    Files.writeString(traces.resolve("kernelslist.g"), "kernel-1.traceg\nkernel-2.traceg\n");
    Files.writeString(
        traces.resolve("kernelslist_ctx_0x2.g"),
        "MemcpyHtoD,0x00007f0000000000,4096\nkernel-3.traceg\n");
    launcher = new RecordingLauncher();
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, launcher).clock(clock).settings(), "two-ctx", WAIT);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private SimLaunch launchOf(String simId) {
    await()
        .atMost(WAIT)
        .until(() -> launcher.launches.stream().anyMatch(l -> l.simId().equals(simId)));
    return launcher.launches.stream()
        .filter(launch -> launch.simId().equals(simId))
        .findFirst()
        .orElseThrow();
  }

  /** Runs the emulator on what the sim was launched with, as its agent would: the log's kernels. */
  private static List<KernelStats> emulate(SimLaunch launch) throws Exception {
    EmulatorOptions options =
        EmulatorOptions.of(
                launch.contract().traceDir(),
                // A variant's sims get its effective folder, as the agent reads it.
                launch.contract().gpuConfigDir() != null
                    ? launch.contract().gpuConfigDir().toString()
                    : launch.contract().gpuConfig())
            .withSpeed(0);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(Emulator.run(Emulator.prepare(options), 0, out, Pacer.system())).isZero();
    return LogSummary.parse(out.toString(UTF_8)).kernels();
  }

  private static long instructions(List<KernelStats> kernels) {
    return kernels.stream().mapToLong(KernelStats::instructions).sum();
  }

  @Test
  void eachContext_simulatesItsOwnList() throws Exception {
    Run first = engine.runs().create("two-ctx", List.of(new RunEntry("SM90_H100", 1)));
    Run second =
        engine
            .runs()
            .create(
                "two-ctx",
                List.of(new RunEntry("SM90_H100", 1).withContext("kernelslist_ctx_0x2.g")));

    List<KernelStats> firstKernels = emulate(launchOf(first.sims().getFirst().id()));
    List<KernelStats> secondKernels = emulate(launchOf(second.sims().getFirst().id()));

    assertThat(firstKernels).extracting(KernelStats::name).containsExactly("kernel_1", "kernel_2");
    assertThat(secondKernels).extracting(KernelStats::name).containsExactly("kernel_3");
    // Full warps: 32 thread instructions per line, as the lists' kernels have them.
    assertThat(instructions(firstKernels)).isEqualTo((3 + 5) * 32);
    assertThat(instructions(secondKernels)).isEqualTo(11 * 32);
    // The entry says the context by its name; the sims count its kernels.
    assertThat(second.entries().getFirst().context()).isEqualTo("kernelslist_ctx_0x2");
    assertThat(first.entries().getFirst().context()).isNull();
    assertThat(second.sims().getFirst().progress().kernelsTotal()).isEqualTo(1);
    assertThat(first.sims().getFirst().progress().kernelsTotal()).isEqualTo(2);
    assertThat(engine.runs().get(second.id()).entries().getFirst().context())
        .isEqualTo("kernelslist_ctx_0x2");
  }

  @Test
  void namingTheFirstContext_isTheDefault() throws Exception {
    Run named =
        engine
            .runs()
            .create("two-ctx", List.of(new RunEntry("SM90_H100", 1).withContext("kernelslist.g")));
    Run plain = engine.runs().create("two-ctx", List.of(new RunEntry("SM90_H100", 1)));

    assertThat(named.entries().getFirst().context()).isEqualTo("kernelslist");
    assertThat(named.sims().getFirst().provenance().traceHash())
        .isEqualTo(plain.sims().getFirst().provenance().traceHash());
    assertThat(instructions(emulate(launchOf(named.sims().getFirst().id()))))
        .isEqualTo((3 + 5) * 32);
  }

  @Test
  void aKernelWindow_countsPositionsInTheContextsList() throws Exception {
    RunEntry past = new RunEntry("SM90_H100", 1, "2").withContext("kernelslist_ctx_0x2");
    assertThatThrownBy(() -> engine.runs().create("two-ctx", List.of(past)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.field()).isEqualTo("entries[0].kernels");
              assertThat(e.getMessage()).contains("context kernelslist_ctx_0x2", "has 1 kernels");
            });

    Run windowed =
        engine
            .runs()
            .create(
                "two-ctx",
                List.of(new RunEntry("SM90_H100", 1, "1").withContext("kernelslist_ctx_0x2")));
    assertThat(emulate(launchOf(windowed.sims().getFirst().id())))
        .extracting(KernelStats::name)
        .containsExactly("kernel_3");
  }

  @Test
  void anUnknownContext_isRefusedNamingItAndTheTracesContexts() {
    RunEntry unknown = new RunEntry("SM90_H100", 1).withContext("kernelslist_ctx_0x9");

    assertThatThrownBy(() -> engine.runs().create("two-ctx", List.of(unknown)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[0].context");
              assertThat(e.getMessage())
                  .contains("\"kernelslist_ctx_0x9\"", "kernelslist, kernelslist_ctx_0x2");
            });
    assertThat(engine.runs().list()).isEmpty();
  }

  @Test
  void reuse_tellsContextsApart() throws Exception {
    Run second =
        engine
            .runs()
            .create(
                "two-ctx",
                List.of(new RunEntry("SM90_H100", 1).withContext("kernelslist_ctx_0x2")));
    String simId = second.sims().getFirst().id();
    launchOf(simId);
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine
        .reports()
        .putChunk(
            simId,
            0,
            ("kernel_name = kernel_3\nkernel_launch_uid = 1\ngpu_sim_cycle = 100\n"
                    + "gpu_tot_sim_cycle = 100\ngpu_tot_sim_insn = 352\n"
                    + "gpgpu_silicon_slowdown = 1000x\nGPGPU-Sim: *** exit detected ***\n")
                .getBytes(UTF_8));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 1));
    await().atMost(WAIT).until(() -> engine.runs().get(second.id()).state() == RunState.SUCCEEDED);

    Run firstAgain = engine.runs().create("two-ctx", List.of(new RunEntry("SM90_H100", 1)), true);
    Run secondAgain =
        engine
            .runs()
            .create(
                "two-ctx",
                List.of(new RunEntry("SM90_H100", 1).withContext("kernelslist_ctx_0x2")),
                true);

    assertThat(firstAgain.sims().getFirst().provenance().traceHash())
        .isNotEqualTo(second.sims().getFirst().provenance().traceHash());
    assertThat(firstAgain.sims().getFirst().provenance().reusedFrom()).isNull();
    assertThat(secondAgain.sims().getFirst().provenance().reusedFrom()).isEqualTo(simId);
  }

  @Test
  void theSharedAccelSim2Fixture_simulatesEitherContext() throws Exception {
    Path text =
        Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
            .resolve("accelsim/accelsim2/gemm-2ctx-c211/expected/text");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isDirectory(text), "needs the fixture " + text + " (at ../shared/fixtures)");
    Path trace = TestTraces.folder(dataDir, "gemm-2ctx");
    Path traces = Files.createDirectories(trace.resolve("traces"));
    try (var files = Files.list(text)) {
      for (Path file :
          files
              .filter(f -> f.toString().endsWith(".g") || f.toString().endsWith(".traceg"))
              .toList()) {
        Files.copy(file, traces.resolve(file.getFileName().toString()));
      }
    }
    Files.writeString(
        trace.resolve("metadata.json"),
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_80\"}");
    await()
        .atMost(WAIT)
        .until(
            () ->
                engine
                    .traces()
                    .find("gemm-2ctx")
                    .map(t -> t.state() == TraceState.READY)
                    .orElse(false));

    Run first = engine.runs().create("gemm-2ctx", List.of(new RunEntry("SM80_A100", 1)));
    Run second =
        engine
            .runs()
            .create(
                "gemm-2ctx",
                List.of(new RunEntry("SM80_A100", 1).withContext("kernelslist_ctx_0x2")));
    List<KernelStats> firstKernels = emulate(launchOf(first.sims().getFirst().id()));
    List<KernelStats> secondKernels = emulate(launchOf(second.sims().getFirst().id()));

    // Each context's kernels, with the instructions its own list's files hold.
    assertThat(firstKernels).hasSize(2);
    assertThat(secondKernels).hasSize(1);
    assertThat(instructions(firstKernels))
        .isEqualTo(threadInstructions(traces.resolve("kernelslist.g")));
    assertThat(instructions(secondKernels))
        .isEqualTo(threadInstructions(traces.resolve("kernelslist_ctx_0x2.g")))
        .isNotEqualTo(instructions(firstKernels))
        .isPositive();
  }

  /** The emulator run on {@code list} itself, as a list file: the kernels it names. */
  private static long threadInstructions(Path list) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Emulator.run(
        Emulator.prepare(EmulatorOptions.of(list, "SM80_A100").withSpeed(0)),
        0,
        out,
        Pacer.system());
    return instructions(LogSummary.parse(out.toString(UTF_8)).kernels());
  }

  @Test
  void aSweptEntryOfAContext_givesEachVariantThatContextsList() throws Exception {
    RunEntry swept =
        new RunEntry("SM90_H100", 1)
            .withContext("kernelslist_ctx_0x2")
            .withSweep(java.util.Map.of("-gpgpu_n_clusters", List.of("66", "132")));

    Run run = engine.runs().create("two-ctx", List.of(swept));

    assertThat(run.entries())
        .extracting(RunEntry::name)
        .containsExactly("SM90_H100 -gpgpu_n_clusters=66", "SM90_H100 -gpgpu_n_clusters=132");
    assertThat(run.entries()).extracting(RunEntry::context).containsOnly("kernelslist_ctx_0x2");
    Sim a = run.sims().get(0);
    Sim b = run.sims().get(1);
    assertThat(a.provenance().traceHash()).isEqualTo(b.provenance().traceHash());
    assertThat(a.provenance().configHash()).isNotEqualTo(b.provenance().configHash());
    for (Sim sim : run.sims()) {
      assertThat(sim.progress().kernelsTotal()).isEqualTo(1);
      assertThat(emulate(launchOf(sim.id())))
          .extracting(KernelStats::name)
          .containsExactly("kernel_3");
    }
  }

  @Test
  void samplingAContextOtherThanTheFirst_isRefusedNamingTheContext() {
    RunEntry sampled =
        new RunEntry("SM90_H100", 1, Sampling.of(0.05)).withContext("kernelslist_ctx_0x2");

    assertThatThrownBy(() -> engine.runs().create("two-ctx", List.of(sampled)))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.field()).isEqualTo("entries[0].context");
              assertThat(e.getMessage())
                  .contains("first CUDA context", "\"kernelslist_ctx_0x2\" cannot be sampled");
            });
  }
}
