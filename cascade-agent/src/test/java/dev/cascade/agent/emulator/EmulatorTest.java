package dev.cascade.agent.emulator;

import static dev.cascade.agent.emulator.TestTraces.kernel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.accelsim.stats.BuildString;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.LogSummary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class EmulatorTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures")).resolve("accelsim");

  @TempDir Path dir;

  private record Run(String output, int exitCode, long totalCycles) {
    LogSummary summary() {
      return LogSummary.parse(output);
    }
  }

  private Path smallTrace() throws IOException {
    return TestTraces.write(
        dir.resolve("small"),
        List.of(kernel("_Z4axpyPfS_", 64), kernel("_Z6reducePf", 8), kernel("_Z4axpyPfS_", 64)),
        List.of("MemcpyHtoD,0x00007f0000000000,4096"));
  }

  private static Run emulate(EmulatorOptions options) throws Exception {
    Emulation emulation = Emulator.prepare(options.withSpeed(0));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = Emulator.run(emulation, 0, out, new VirtualPacer());
    return new Run(out.toString(StandardCharsets.UTF_8), code, emulation.totalCycles());
  }

  private static long totalCycles(LogSummary summary) {
    return summary.kernels().stream().mapToLong(KernelStats::cycles).sum();
  }

  @Test
  void sameSeed_givesTheSameBytes() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withReplica(3);

    assertThat(emulate(options).output()).isEqualTo(emulate(options).output());
  }

  @Test
  void otherSeed_givesOtherNumbersWithJitter() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withJitter(true);

    assertThat(emulate(options.withSeed(7)).totalCycles())
        .isNotEqualTo(emulate(options.withSeed(8)).totalCycles());
  }

  @Test
  void replicasWithoutJitter_agreeExactly_asAccelSimDoes() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100");

    List<Run> replicas =
        List.of(
            emulate(options.withReplica(0)),
            emulate(options.withReplica(1)),
            emulate(options.withReplica(2).withSeed(9)));

    assertThat(replicas)
        .extracting(Run::totalCycles)
        .containsOnly(replicas.getFirst().totalCycles());
    assertThat(replicas.getFirst().output()).contains("deterministic (no replica jitter)");
  }

  @Test
  void replicasWithJitter_differSlightlyInCyclesButNotInInstructions() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withJitter(true);
    List<LogSummary> replicas =
        List.of(
            emulate(options.withReplica(0)).summary(),
            emulate(options.withReplica(1)).summary(),
            emulate(options.withReplica(2)).summary());

    List<Long> cycles = replicas.stream().map(EmulatorTest::totalCycles).toList();
    double mean = cycles.stream().mapToLong(Long::longValue).average().orElseThrow();
    assertThat(cycles).doesNotHaveDuplicates();
    assertThat(cycles).allSatisfy(c -> assertThat((double) c).isCloseTo(mean, within(mean * 0.03)));
    assertThat(replicas)
        .extracting(s -> s.kernels().stream().mapToLong(KernelStats::instructions).sum())
        .containsOnly(
            replicas.getFirst().kernels().stream().mapToLong(KernelStats::instructions).sum());
  }

  @Test
  void output_parsesAsACompleteRunOfTheTracesKernelsWithConsistentTotals() throws Exception {
    Run run = emulate(EmulatorOptions.of(smallTrace(), "SM90_H100"));
    LogSummary summary = run.summary();

    assertThat(run.exitCode()).isZero();
    assertThat(summary.complete()).isTrue();
    assertThat(summary.build(BuildString.Component.ACCEL_SIM)).contains(Emulation.BUILD);
    assertThat(summary.build(BuildString.Component.GPGPU_SIM)).contains(Emulation.BUILD);
    assertThat(summary.kernels())
        .extracting(KernelStats::name, KernelStats::uid, KernelStats::instance)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("_Z4axpyPfS_", 1L, 0),
            org.assertj.core.groups.Tuple.tuple("_Z6reducePf", 2L, 0),
            org.assertj.core.groups.Tuple.tuple("_Z4axpyPfS_", 3L, 1));
    long cycles = 0;
    long instructions = 0;
    for (KernelStats kernel : summary.kernels()) {
      Map<String, Number> stats = kernel.stats();
      cycles += kernel.cycles();
      instructions += kernel.instructions();
      assertThat(stats.get("gpu_sim_cycle").longValue()).isEqualTo(kernel.cycles());
      assertThat(stats.get("gpu_sim_insn").longValue()).isEqualTo(kernel.instructions());
      assertThat(stats.get("gpu_tot_sim_cycle").longValue()).isEqualTo(cycles);
      assertThat(stats.get("gpu_tot_sim_insn").longValue()).isEqualTo(instructions);
      assertThat(stats.get("gpu_ipc").doubleValue())
          .isCloseTo(kernel.instructions() / (double) kernel.cycles(), within(0.001));
      assertThat(stats.get("gpu_occupancy").doubleValue()).isBetween(0.0, 100.0);
      assertThat(stats).containsKeys("L2_BW", "gpgpu_simulation_rate", "gpgpu_silicon_slowdown");
    }
    // 64 blocks of 4 warps, 24 instructions each, 16 lanes active in 19 of them and 32 in 5.
    assertThat(summary.kernels().getFirst().instructions()).isEqualTo(64L * 4 * (19 * 16 + 5 * 32));
    assertThat(cycles).isEqualTo(run.totalCycles());
    assertThat(run.output())
        .contains("launching memcpy command : MemcpyHtoD,0x00007f0000000000,4096\n")
        .contains("launching kernel name: _Z6reducePf uid: 2 cuda_stream_id: 0\n")
        .contains("thread block = 7,0,0\n")
        .contains("-gpgpu_clock_domains  1980:3960:3960:3106")
        .containsPattern("\n-gpgpu_n_clusters +132 ")
        .endsWith(
            "GPGPU-Sim: *** simulation thread exiting ***\nGPGPU-Sim: *** exit detected ***\n");
  }

  @Test
  void simulationRate_isConsistentWithTheClock() throws Exception {
    LogSummary summary =
        emulate(EmulatorOptions.of(smallTrace(), "SM90_H100").withSpeed(1000)).summary();
    Map<String, Number> last = summary.kernels().getLast().stats();

    long cyclesPerSecond = last.get("gpgpu_simulation_rate#2").longValue();
    assertThat(last.get("gpgpu_silicon_slowdown").longValue())
        .isEqualTo(1_980_000_000L / cyclesPerSecond);
  }

  @Test
  void reportedSimulationTime_followsTheSpeed() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withSpeed(1000);
    Emulation emulation = Emulator.prepare(options);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Emulator.run(emulation, 1000, out, new VirtualPacer());
    LogSummary summary = LogSummary.parse(out.toString(StandardCharsets.UTF_8));

    long seconds = emulation.totalCycles() / 1000;
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("gpgpu_simulation_time = 0 days, 0 hrs, " + seconds / 60 + " min, ");
    assertThat(summary.kernels().getLast().stats().get("gpgpu_simulation_rate#2").longValue())
        .isEqualTo(emulation.totalCycles() / seconds);
  }

  private Path config(String name, int sms, String clock) throws IOException {
    return config(name, sms, clock, 0);
  }

  private Path config(String name, int sms, String clock, int launchLatency) throws IOException {
    Path config = Files.createDirectories(dir.resolve("configs").resolve(name));
    Files.writeString(
        config.resolve("gpgpusim.config"),
        """
        # a made-up Hopper, for tests
        -gpgpu_n_clusters %d
        -gpgpu_n_cores_per_cluster 1
        -gpgpu_clock_domains %s:3960:3960:3106
        -gpgpu_compute_capability_major 9
        -gpgpu_compute_capability_minor 0
        -gpgpu_shader_core_pipeline 2048:32
        -gpgpu_n_mem 40
        -gpgpu_kernel_launch_latency %d
        """
            .formatted(sms, clock, launchLatency));
    return config;
  }

  /**
   * 264 blocks of 1024 threads, 64 registers each: one block per SM, so waves follow SMs; 48
   * instructions per warp and no global loads, so the SMs' issue bounds it, not DRAM.
   */
  private Path wideTrace() throws IOException {
    return TestTraces.write(
        dir.resolve("wide"), List.of(new TestTraces.Kernel("_Z4widePf", 264, 1024, 64, 0, 48, 0)));
  }

  /** The wide trace's 14 MB are counted, not estimated. */
  private static long wideCycles(Path trace, String config) throws Exception {
    return emulate(EmulatorOptions.of(trace, config).withCountLimitBytes(Long.MAX_VALUE))
        .totalCycles();
  }

  @Test
  void fewerSms_giveMoreCycles() throws Exception {
    Path trace = wideTrace();

    long full = wideCycles(trace, config("SM90_FULL", 132, "1980").toString());
    long half = wideCycles(trace, config("SM90_HALF", 66, "1980").toString());
    long h100 = wideCycles(trace, "SM90_H100");
    long halfH100 = wideCycles(trace, config("SM90_HALF_H100", 66, "1980", 3000).toString());

    assertThat(half).isGreaterThan(full * 3 / 2);
    assertThat(halfH100).isGreaterThan(h100 * 11 / 10);
    Run run = emulate(EmulatorOptions.of(trace, "SM90_H100"));
    assertThat(run.output()).contains("GPGPU-Sim uArch: CTA/core = 1, limited by: regs\n");
  }

  @Test
  void higherClock_givesLessTime() throws Exception {
    Path trace = wideTrace();

    long fast = wideCycles(trace, config("SM90_FAST", 132, "1980").toString());
    long slow = wideCycles(trace, config("SM90_SLOW", 132, "990").toString());

    assertThat(slow / 990.0).isGreaterThan(fast / 1980.0);
  }

  @Test
  void pacing_followsTheVirtualClockWithoutWaitingForReal() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withSpeed(1_000);
    Emulation emulation = Emulator.prepare(options);
    VirtualPacer pacer = new VirtualPacer();
    long wallStart = System.nanoTime();

    int code = Emulator.run(emulation, options.speed(), new ByteArrayOutputStream(), pacer);

    assertThat(code).isZero();
    double expectedNanos = emulation.totalCycles() / 1_000.0 * 1e9;
    assertThat(expectedNanos).isGreaterThan(5e9);
    assertThat((double) pacer.nanoTime()).isCloseTo(expectedNanos, within(expectedNanos * 0.01));
    assertThat(pacer.waits()).isGreaterThan(3);
    assertThat((double) (System.nanoTime() - wallStart)).isLessThan(expectedNanos / 2);
  }

  @Test
  void speedZero_neverWaits() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withSpeed(0);
    VirtualPacer pacer = new VirtualPacer();

    Emulator.run(Emulator.prepare(options), 0, new ByteArrayOutputStream(), pacer);

    assertThat(pacer.waits()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Failure.class)
  void injectedFailure_showsAsTheRealSimulatorWouldShowIt(Failure failure) throws Exception {
    Run run = emulate(EmulatorOptions.of(smallTrace(), "SM90_H100").withFailure(2, failure));
    LogSummary summary = run.summary();

    assertThat(run.exitCode()).isEqualTo(failure.exitCode());
    switch (failure) {
      case DEADLOCK -> {
        assertThat(summary.outcome().state()).isEqualTo(LogOutcome.State.FAILED);
        assertThat(summary.outcome().reason()).contains("ERROR ** deadlock detected");
        assertThat(summary.kernels()).hasSize(1);
      }
      case UNSUPPORTED_BINARY -> {
        assertThat(summary.outcome().state()).isEqualTo(LogOutcome.State.FAILED);
        assertThat(summary.outcome().reason()).isEqualTo("unsupported binary version: 90");
        assertThat(summary.kernels()).hasSize(1);
      }
      case MAX_CYCLES -> {
        assertThat(summary.outcome().state()).isEqualTo(LogOutcome.State.NOT_FINAL);
        assertThat(summary.kernels()).hasSize(2);
      }
      case CRASH -> {
        assertThat(summary.outcome().state()).isEqualTo(LogOutcome.State.INCOMPLETE);
        assertThat(summary.kernels()).hasSize(1);
      }
    }
  }

  @Test
  void realTrace_isCountedAndEmulatedKernelByKernel() throws Exception {
    Path trace = FIXTURES.resolve("real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(
        Files.isDirectory(trace),
        "needs the fixture "
            + trace
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    Emulation emulation = Emulator.prepare(EmulatorOptions.of(trace, "SM90_H100"));
    List<EmulatedKernel> kernels = emulation.trace().kernels();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = Emulator.run(emulation, 0, out, new VirtualPacer());
    LogSummary summary = LogSummary.parse(out.toString(StandardCharsets.UTF_8));

    assertThat(code).isZero();
    assertThat(kernels).hasSize(8).allSatisfy(k -> assertThat(k.counted()).isTrue());
    // stats.csv, written by the tracer, says kernel 1 ran 2531 warp instructions.
    assertThat(kernels.getFirst().warpInstructions()).isEqualTo(2531);
    assertThat(kernels.getFirst().globalLoads() + kernels.getFirst().globalStores()).isPositive();
    // Kernel 1's loads have no active lane (mask 00000000): they wait for nothing. Kernel 3's
    // longest warp runs 67 instructions and one load with 4 lanes of 8 bytes: one 32-byte sector.
    assertThat(kernels.getFirst().loadRoundTrips()).isZero();
    assertThat(kernels.get(2).longestWarp()).isEqualTo(67);
    assertThat(kernels.get(2).loadRoundTrips()).isEqualTo(1);
    assertThat(kernels.get(2).loadBytes()).isEqualTo(32);
    assertThat(summary.complete()).isTrue();
    assertThat(summary.kernels())
        .extracting(KernelStats::name)
        .containsExactlyElementsOf(kernels.stream().map(EmulatedKernel::name).toList());
    assertThat(summary.kernels()).allSatisfy(k -> assertThat(k.cycles()).isPositive());
  }

  @Test
  void largeKernelFiles_areEstimated() throws Exception {
    EmulatorOptions options = EmulatorOptions.of(smallTrace(), "SM90_H100").withCountLimitBytes(0);

    Emulation emulation = Emulator.prepare(options);

    assertThat(emulation.trace().kernels())
        .allSatisfy(
            k -> {
              assertThat(k.counted()).isFalse();
              assertThat(k.warpInstructions()).isGreaterThanOrEqualTo(k.blocks() * 4);
              assertThat(k.threadInstructions()).isGreaterThan(k.warpInstructions());
            });
    assertThat(emulate(options).summary().complete()).isTrue();
  }

  @Test
  void cascadeTraceFolder_isReadFromItsTracesFolder() throws Exception {
    Path trace = dir.resolve("trace");
    TestTraces.write(trace.resolve("traces"), List.of(kernel("_Z1kv", 2)));
    Files.writeString(trace.resolve("metadata.json"), "{}");

    assertThat(emulate(EmulatorOptions.of(trace, "SM80_A100")).summary().kernels()).hasSize(1);
  }

  @Test
  void testedCfgsFolder_givesItsSmsClockAndOptions() throws Exception {
    Path h100 = FIXTURES.resolve("tested-cfgs/SM90_H100");
    Assumptions.assumeTrue(
        Files.isDirectory(h100),
        "needs the fixture "
            + h100
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    EmulatedGpu gpu = EmulatedGpu.resolve(h100.toString());

    assertThat(gpu.name()).isEqualTo("SM90_H100");
    assertThat(gpu.arch()).isEqualTo("sm_90");
    assertThat(gpu.sms()).isEqualTo(132);
    assertThat(gpu.clockMhz()).isEqualTo(1980.0);
    assertThat(gpu.memory().channels()).isEqualTo(40);
    assertThat(gpu.limits().kernelLaunchLatency()).isEqualTo(3000);
    assertThat(gpu.options()).extracting(Map.Entry::getKey).contains("gpgpu_n_clusters");
    assertThat(emulate(EmulatorOptions.of(smallTrace(), h100.toString())).summary().complete())
        .isTrue();
  }

  @Test
  void unknownConfig_namesTheBuiltInOnes() {
    assertThatThrownBy(() -> EmulatedGpu.resolve("SM99_NOPE"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'SM99_NOPE'")
        .hasMessageContaining("SM90_H100");
  }

  @Test
  void options_fallBackToTheSimsEnvironment() {
    EmulatorOptions options =
        EmulatorOptions.parse(
            List.of("--speed=0"),
            Map.of(
                "CASCADE_TRACE_DIR", "/traces/t1",
                "CASCADE_GPU_CONFIG_DIR", "",
                "CASCADE_GPU_CONFIG", "SM90_H200",
                "CASCADE_REPLICA", "2",
                "CASCADE_EMULATE_SPEED", "123"));

    assertThat(options.trace()).isEqualTo(Path.of("/traces/t1"));
    assertThat(options.config()).isEqualTo("SM90_H200");
    assertThat(options.replica()).isEqualTo(2);
    assertThat(options.speed()).isZero();
    assertThat(options.failAtKernel()).isZero();
  }

  @Test
  void builder_takesWhatIsGivenAndTheEnvironmentForTheRest() {
    EmulatorOptions options =
        EmulatorOptions.builder()
            .trace("/traces/t1")
            .speed("0")
            .replica((String) null)
            .failAtKernel("2")
            .failure("crash")
            .orEnvironment(Map.of("CASCADE_GPU_CONFIG", "SM90_H200", "CASCADE_REPLICA", "3"))
            .build();

    assertThat(options)
        .isEqualTo(
            EmulatorOptions.of(Path.of("/traces/t1"), "SM90_H200")
                .withReplica(3)
                .withSpeed(0)
                .withFailure(2, Failure.CRASH));
    assertThatThrownBy(() -> EmulatorOptions.builder().replica("two"))
        .hasMessage("--replica must be a whole number; got 'two'");
  }

  @Test
  void jitter_isOffByDefault_andTurnedOnByTheFlagOrTheEnvironment() {
    List<String> base = List.of("--trace", "t", "--config", "SM90_H100");
    Map<String, String> jitterEnv = Map.of("CASCADE_EMULATE_JITTER", "on");

    assertThat(EmulatorOptions.parse(base, Map.of()).jitter()).isFalse();
    assertThat(EmulatorOptions.parse(append(base, "--jitter"), Map.of()).jitter()).isTrue();
    assertThat(EmulatorOptions.parse(append(base, "--jitter=off"), jitterEnv).jitter()).isFalse();
    assertThat(EmulatorOptions.parse(base, jitterEnv).jitter()).isTrue();
    assertThatThrownBy(
            () -> EmulatorOptions.parse(base, Map.of("CASCADE_EMULATE_JITTER", "sometimes")))
        .hasMessage("CASCADE_EMULATE_JITTER must be on or off; got 'sometimes'");
  }

  private static List<String> append(List<String> args, String arg) {
    List<String> all = new java.util.ArrayList<>(args);
    all.add(arg);
    return all;
  }

  @Test
  void options_rejectWhatTheyCannotUse() {
    assertThatThrownBy(() -> EmulatorOptions.parse(List.of("--config", "SM90_H100"), Map.of()))
        .hasMessageContaining("no trace");
    assertThatThrownBy(() -> EmulatorOptions.parse(List.of("--trace", "t"), Map.of()))
        .hasMessageContaining("no GPU config");
    assertThatThrownBy(
            () ->
                EmulatorOptions.parse(
                    List.of("--trace", "t", "--config", "c", "--bogus"), Map.of()))
        .hasMessageContaining("unknown emulator option '--bogus'");
    assertThatThrownBy(
            () ->
                EmulatorOptions.parse(
                    List.of("--trace", "t", "--config", "c", "--speed", "-1"), Map.of()))
        .hasMessageContaining("--speed must be 0");
    assertThatThrownBy(
            () ->
                EmulatorOptions.parse(
                    List.of("--trace", "t", "--config", "c", "--failure", "boom"), Map.of()))
        .hasMessageContaining("unknown failure 'boom'")
        .hasMessageContaining("max-cycles");
  }
}
