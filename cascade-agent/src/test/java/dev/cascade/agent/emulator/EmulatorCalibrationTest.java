package dev.cascade.agent.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogSummary;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The emulator against the real simulator: the fixtures' {@code accel-sim.out} of the {@code
 * flashinfer-gemm} trace on {@code SM80_A100} (real-logs/SOURCES.md), kernel by kernel.
 */
final class EmulatorCalibrationTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures")).resolve("accelsim");

  private static LogSummary emulate(Path trace, String config) throws Exception {
    Emulation emulation = Emulator.prepare(EmulatorOptions.of(trace, config).withSpeed(0));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(Emulator.run(emulation, 0, out, new VirtualPacer())).isZero();
    return LogSummary.parse(out.toString(StandardCharsets.UTF_8));
  }

  private static long total(List<KernelStats> kernels) {
    return kernels.stream().mapToLong(KernelStats::cycles).sum();
  }

  @Test
  void a100_isWithinAQuarterOfTheRealSimulatorPerKernelAndATenthInTotal() throws Exception {
    Path trace = FIXTURES.resolve("real-traces/flashinfer-gemm");
    Path log = FIXTURES.resolve("real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
    Assumptions.assumeTrue(Files.isRegularFile(log), "fixtures not present");

    List<KernelStats> real = LogSummary.parse(Files.readString(log)).kernels();
    List<KernelStats> emulated =
        emulate(trace, FIXTURES.resolve("tested-cfgs/SM80_A100").toString()).kernels();

    assertThat(emulated)
        .extracting(KernelStats::name)
        .containsExactlyElementsOf(real.stream().map(KernelStats::name).toList());
    StringBuilder table = new StringBuilder("| kernel | real | emulated | error |\n");
    for (int i = 0; i < real.size(); i++) {
      long r = real.get(i).cycles();
      long e = emulated.get(i).cycles();
      table.append(
          String.format(
              Locale.ROOT, "| %d | %,d | %,d | %+.1f%% |%n", i + 1, r, e, 100.0 * (e - r) / r));
    }
    long r = total(real);
    long e = total(emulated);
    table.append(
        String.format(Locale.ROOT, "| total | %,d | %,d | %+.1f%% |%n", r, e, 100.0 * (e - r) / r));
    System.out.print(table);

    for (int i = 0; i < real.size(); i++) {
      double realCycles = real.get(i).cycles();
      assertThat((double) emulated.get(i).cycles())
          .as("kernel %d", i + 1)
          .isBetween(realCycles * 0.75, realCycles * 1.25);
    }
    assertThat((double) e).isBetween(r * 0.9, r * 1.1);
  }

  @Test
  void builtInA100_givesTheSameCyclesAsItsTestedCfgsFolder() throws Exception {
    Path trace = FIXTURES.resolve("real-traces/flashinfer-gemm");
    Assumptions.assumeTrue(Files.isDirectory(trace), "fixtures not present");

    assertThat(total(emulate(trace, "SM80_A100").kernels()))
        .isEqualTo(
            total(emulate(trace, FIXTURES.resolve("tested-cfgs/SM80_A100").toString()).kernels()));
  }

  @Test
  void h100AndH200_agreeWithinThreePercentOnTheRealLatencyBoundTraces() throws Exception {
    for (String name : List.of("flashinfer-gemm", "flashinfer-prefill")) {
      Path trace = FIXTURES.resolve("real-traces").resolve(name);
      Assumptions.assumeTrue(Files.isDirectory(trace), "fixtures not present");

      double h100 = total(emulate(trace, "SM90_H100").kernels());
      double h200 = total(emulate(trace, "SM90_H200").kernels());

      assertThat(h200 / h100).as(name).isBetween(0.97, 1.03);
    }
  }
}
