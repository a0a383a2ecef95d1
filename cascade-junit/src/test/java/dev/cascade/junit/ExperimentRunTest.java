package dev.cascade.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.KernelComparison;
import dev.cascade.core.RunState;
import dev.cascade.core.Spread;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Finding configs and kernels in a run's results, and speedups between configs. */
final class ExperimentRunTest {

  private static final String GEMM = "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_qkv_proj";
  private static final String ADD = "void at::native::vectorized_elementwise_kernel<4, Add>";
  private static final String FLASH = "flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128>>";

  private final ExperimentRun run =
      new ExperimentRun(
          "r_1",
          "demo",
          RunState.SUCCEEDED,
          List.of(
              config("SM90_H100", 1980.0, new double[] {200, 100, 400, 100}),
              config("SM90_H200", 1980.0, new double[] {100, 100, 320, 100})));

  @Test
  void config_unknown_listsTheRunsConfigs() {
    assertThatThrownBy(() -> run.config("SM80_A100"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("run r_1 has no GPU config \"SM80_A100\"; it ran SM90_H100, SM90_H200");
  }

  @Test
  void kernel_byPartOfItsName() {
    assertThat(run.config("SM90_H100").kernel("flash_fwd").name()).isEqualTo(FLASH);
    assertThat(run.config("SM90_H100").kernel(GEMM).cycles().mean()).isEqualTo(200);
  }

  @Test
  void kernel_matchingSeveral_saysHowToPickOne() {
    assertThatThrownBy(() -> run.config("SM90_H100").kernel("elementwise"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("2 kernels of SM90_H100 are called or contain \"elementwise\"")
        .hasMessageContaining("kernel(name, instance)")
        .hasMessageContaining(ADD + " (instance 1)");
    assertThat(run.config("SM90_H100").kernel("elementwise", 1).instance()).isEqualTo(1);
    assertThat(run.config("SM90_H100").kernels("elementwise")).hasSize(2);
  }

  @Test
  void kernel_matchingNone_listsTheKernels() {
    assertThatThrownBy(() -> run.config("SM90_H100").kernel("softmax"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "no kernel of SM90_H100 is called or contains \"softmax\"; its kernels are:\n  "
                + GEMM
                + " (instance 0)\n  "
                + ADD
                + " (instance 0)\n  "
                + FLASH
                + " (instance 0)\n  "
                + ADD
                + " (instance 1)");
    assertThatThrownBy(() -> run.config("SM90_H100").kernel("flash", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no kernel of SM90_H100 called or containing \"flash\" with");
  }

  @Test
  void speedup_isTheBaselinesMeanTimeOverTheCandidates() {
    assertThat(run.speedup("SM90_H100", "SM90_H200", "flash")).isCloseTo(1.25, within(1e-9));
    assertThat(run.speedup("SM90_H100", "SM90_H200", GEMM)).isCloseTo(2.0, within(1e-9));
    assertThat(run.speedup("SM90_H100", "SM90_H200")).isCloseTo(800.0 / 620, within(1e-9));
    assertThat(run.speedup("SM90_H200", "SM90_H100")).isLessThan(1);
  }

  @Test
  void speedups_everyKernelThenTheTotal() {
    assertThat(run.speedups("SM90_H100", "SM90_H200"))
        .extracting(KernelSpeedup::name, KernelSpeedup::instance)
        .containsExactly(
            tuple(GEMM, 0),
            tuple(ADD, 0),
            tuple(FLASH, 0),
            tuple(ADD, 1),
            tuple(KernelComparison.TOTAL, 0));
    assertThat(run.speedups("SM90_H100", "SM90_H200"))
        .filteredOn(speedup -> speedup.name().contains("flash"))
        .singleElement()
        .satisfies(speedup -> assertThat(speedup.speedup()).isGreaterThan(1.2));
  }

  @Test
  void speedup_withoutSimulatedTime_saysWhyAndWhatToDo() {
    ExperimentRun noClock =
        new ExperimentRun(
            "r_2",
            "demo",
            RunState.SUCCEEDED,
            List.of(
                config("SM90_H100", 1980.0, new double[] {1, 1, 1, 1}),
                config("GONE", null, new double[] {1, 1, 1, 1})));

    assertThatThrownBy(() -> noClock.speedup("SM90_H100", "GONE"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "no simulated time of \"(all kernels)\" on GONE: its core clock is unknown (no"
                + " clock); compare cycles() instead");
  }

  // ---------------------------------------------------------------------------------------------

  /** Two replicas with the same cycles per kernel: {@code gemm, add, flash, add}. */
  private static ConfigResults config(String name, Double clockMhz, double[] cycles) {
    List<String> names = List.of(GEMM, ADD, FLASH, ADD);
    List<KernelComparison> kernels =
        List.of(
            kernel(names.get(0), 0, cycles[0], clockMhz),
            kernel(names.get(1), 0, cycles[1], clockMhz),
            kernel(names.get(2), 0, cycles[2], clockMhz),
            kernel(names.get(3), 1, cycles[3], clockMhz));
    double sum = cycles[0] + cycles[1] + cycles[2] + cycles[3];
    return new ConfigResults(
        name,
        "sm_90",
        clockMhz,
        2,
        2,
        kernels,
        kernel(KernelComparison.TOTAL, 0, sum, clockMhz),
        clockMhz == null ? List.of("no clock") : List.of());
  }

  private static KernelComparison kernel(String name, int instance, double cycles, Double clock) {
    return new KernelComparison(
        name,
        instance,
        List.of(0, 1),
        Spread.of(cycles, cycles),
        Spread.of(1000, 1000),
        Spread.of(1000 / cycles, 1000 / cycles),
        clock == null ? Spread.empty() : Spread.of(cycles / clock, cycles / clock));
  }
}
