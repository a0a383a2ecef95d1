package dev.cascade.examples;

// tag::experiment[]
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.junit.CascadeExperiment;
import dev.cascade.junit.ConfigResults;
import dev.cascade.junit.Experiment;
import dev.cascade.junit.ExperimentRun;
import dev.cascade.junit.KernelSpeedup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo layer on the H100 and the H200: three replicas each, sims on this machine. */
@CascadeExperiment(traces = "demo")
final class H100VsH200ExperimentIT {

  private static ExperimentRun run;

  @BeforeAll
  static void runTheDemoOnBothGpus(Experiment experiment) {
    run = experiment.run("demo", "SM90_H100:3", "SM90_H200:3");
  }

  @Test
  void everyReplicaFinishesEveryKernel() {
    assertThat(run.configs())
        .allSatisfy(
            config -> {
              assertThat(config.succeeded()).isEqualTo(3);
              assertThat(config.kernels()).hasSize(5).allMatch(kernel -> kernel.n() == 3);
            });
  }

  @Test
  void bothGpusExecuteTheSameInstructions() {
    ConfigResults h100 = run.config("SM90_H100");
    ConfigResults h200 = run.config("SM90_H200");
    assertThat(h200.kernel("flash_fwd").instructions().mean())
        .isEqualTo(h100.kernel("flash_fwd").instructions().mean());
    assertThat(h200.total().instructions().stdev()).isZero();
  }

  @Test
  void replicasAgreeExactly_asAccelSimDoes() {
    assertThat(run.config("SM90_H200").kernels())
        .allSatisfy(kernel -> assertThat(kernel.cycles().stdev()).isZero());
  }

  @Test
  void onlyTheBandwidthBoundKernelsGainFromTheH200sExtraMemoryChannels() {
    for (KernelSpeedup kernel : run.speedups("SM90_H100", "SM90_H200")) {
      if (kernel.name().contains("elementwise")) {
        // The residual adds stream 8 MiB: 48 memory channels against 40 give up to 1.2x.
        assertThat(kernel.speedup()).as(kernel.name()).isBetween(1.08, 1.2);
      } else if (kernel.name().contains("gemm") || kernel.name().contains("flash")) {
        // Launch- and latency-bound: the same on both.
        assertThat(kernel.speedup()).as(kernel.name()).isCloseTo(1.0, within(0.01));
      }
    }
  }
}
// end::experiment[]
