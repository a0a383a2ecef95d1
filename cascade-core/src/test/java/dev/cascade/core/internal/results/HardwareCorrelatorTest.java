package dev.cascade.core.internal.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.ConfigCorrelation;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelMatch;
import dev.cascade.core.Spread;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.HardwareRepository;
import dev.cascade.core.internal.store.TraceRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HardwareCorrelatorTest {

  /** The demo trace's five launches, as its sim logs name them. */
  private static final List<String> NAMES =
      List.of(
          "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64_qkv_proj",
          "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<c10::Half>>",
          "flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 64, 4, c10::Half>>",
          "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x64_out_proj",
          "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<c10::Half>>");

  private static final double[] MEASURED = {6912, 2250, 14580, 5040, 2214};

  @TempDir Path dir;
  private Database database;
  private HardwareCorrelator correlator;

  @BeforeEach
  void open() {
    database = Database.open(dir.resolve("cascade.db"));
    correlator =
        new HardwareCorrelator(
            new HardwareRepository(database, Clock.systemUTC()), dir.resolve("traces"));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void correlate_pairsKernelsByLaunchOrderWithTheTracesHardwareCsv() throws Exception {
    Path hardware = Files.createDirectories(dir.resolve("traces/demo/hardware"));
    Files.writeString(hardware.resolve("h100.csv"), NcuCsvTest.fixture());
    // Every simulated kernel 10% slower than measured, on a 1980 MHz clock.
    ConfigResult h100 = config("SM90_H100", "sm_90", 1.1, NAMES.size());
    ConfigResult a100 = config("SM80_A100", "sm_80", 1.0, NAMES.size());

    HardwareCorrelation correlation = correlator.correlate(trace("sm_90"), List.of(h100, a100));

    assertThat(correlation.source()).isEqualTo("hardware/h100.csv");
    assertThat(correlation.measuredKernels()).isEqualTo(5);
    ConfigCorrelation config = correlation.configs().get(0);
    assertThat(correlation.configs()).hasSize(1); // the A100 is not the traced architecture
    assertThat(config.gpuConfig()).isEqualTo("SM90_H100");
    assertThat(config.notes()).isEmpty(); // same count, names agree
    KernelMatch flash = config.kernels().get(2);
    assertThat(flash.measuredCycles()).isEqualTo(14580.0);
    assertThat(flash.simulatedCycles()).isCloseTo(16038.0, within(1e-6));
    assertThat(flash.cyclesErrorPct()).isCloseTo(10.0, within(1e-9));
    assertThat(flash.measuredTimeUs()).isEqualTo(8.10);
    assertThat(flash.simulatedTimeUs()).isCloseTo(16038.0 / 1980, within(1e-9));
    assertThat(config.kernels().get(4).instance()).isEqualTo(1);
    assertThat(config.cycles().pearson()).isCloseTo(1.0, within(1e-12));
    assertThat(config.cycles().meanAbsErrorPct()).isCloseTo(10.0, within(1e-9));
    assertThat(config.cycles().aggregateErrorPct()).isCloseTo(10.0, within(1e-9));
    double squares = 0;
    double sum = 0;
    for (double hw : MEASURED) {
      squares += (0.1 * hw) * (0.1 * hw);
      sum += hw;
    }
    assertThat(config.cycles().nrmse()).isCloseTo(Math.sqrt(squares / 5) / (sum / 5), within(1e-9));
    // Time: the simulated clock is not the GPU's, so the error is not 10%.
    assertThat(config.time().n()).isEqualTo(5);
    assertThat(config.time().pearson()).isGreaterThan(0.99);
  }

  @Test
  void correlate_saysWhenKernelCountsDifferAndPrefersTheCsvGivenToTheApi() throws Exception {
    new TraceRepository(database).save(trace("sm_90"));
    new HardwareRepository(database, Clock.systemUTC())
        .put(new HardwareRepository.Stored("demo", "api.csv", NcuCsvTest.fixture()));
    Path hardware = Files.createDirectories(dir.resolve("traces/demo/hardware"));
    Files.writeString(hardware.resolve("ignored.csv"), "not read: the API's CSV comes first");
    ConfigResult h100 = config("SM90_H100", "sm_90", 1.0, 3);

    HardwareCorrelation correlation = correlator.correlate(trace("sm_90"), List.of(h100));

    assertThat(correlation.source()).isEqualTo("api.csv");
    assertThat(correlation.configs().get(0).kernels()).hasSize(3);
    assertThat(correlation.configs().get(0).notes())
        .singleElement()
        .asString()
        .contains("the hardware CSV has 5 kernel launches and SM90_H100 simulated 3")
        .contains("only the first 3 are paired, by launch order");
  }

  @Test
  void correlate_saysWhatToDoWhenTheTraceCarriesNoHardwareNumbers() {
    HardwareCorrelation correlation =
        correlator.correlate(trace("sm_90"), List.of(config("SM90_H100", "sm_90", 1.0, 5)));

    assertThat(correlation.source()).isNull();
    assertThat(correlation.configs()).isEmpty();
    assertThat(correlation.notes())
        .singleElement()
        .asString()
        .contains("carries no hardware numbers")
        .contains("hardware/")
        .contains("PUT it to /api/traces/demo/hardware");
  }

  private static Trace trace(String arch) {
    Instant now = Instant.parse("2026-12-01T00:00:00Z");
    return new Trace(
        "demo",
        TraceState.READY,
        null,
        arch,
        null,
        null,
        List.of(),
        5,
        List.of(),
        1,
        false,
        now,
        now);
  }

  /** A config whose first {@code count} kernels ran {@code factor} times the measured cycles. */
  private static ConfigResult config(String name, String arch, double factor, int count) {
    List<KernelComparison> kernels = new ArrayList<>();
    double total = 0;
    for (int i = 0; i < count; i++) {
      double cycles = MEASURED[i] * factor;
      total += cycles;
      int instance = NAMES.subList(0, i).contains(NAMES.get(i)) ? 1 : 0;
      kernels.add(kernel(NAMES.get(i), instance, cycles));
    }
    return new ConfigResult(
        name, arch, 1980.0, 1, 1, kernels, kernel(KernelComparison.TOTAL, 0, total), List.of());
  }

  private static KernelComparison kernel(String name, int instance, double cycles) {
    return new KernelComparison(
        name,
        instance,
        List.of(0),
        Spread.of(cycles),
        Spread.of(cycles),
        Spread.of(1),
        Spread.of(cycles / 1980));
  }
}
