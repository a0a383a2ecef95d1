package dev.cascade.examples;

// tag::experiment[]
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.junit.CascadeExperiment;
import dev.cascade.junit.ConfigResults;
import dev.cascade.junit.Experiment;
import dev.cascade.junit.ExperimentRun;
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
  void replicasAgreeWithinFivePercent() {
    assertThat(run.config("SM90_H200").kernels())
        .allSatisfy(
            kernel ->
                assertThat(kernel.cycles().max() - kernel.cycles().min())
                    .isLessThanOrEqualTo(0.05 * kernel.cycles().mean()));
  }

  @Test
  void theH200sExtraMemoryChannelsDoNotSpeedUpTheLatencyBoundDemo() {
    assertThat(run.speedups("SM90_H100", "SM90_H200"))
        .allSatisfy(kernel -> assertThat(kernel.speedup()).isCloseTo(1.0, within(0.05)));
  }
}
// end::experiment[]
