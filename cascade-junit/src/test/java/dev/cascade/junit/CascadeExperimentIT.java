package dev.cascade.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.Run;
import dev.cascade.core.RunState;
import dev.cascade.core.TraceState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link CascadeExperiment} for real: an embedded Cascade whose sims are local processes running
 * the emulator, on the demo trace and a trace folder of the tests' own.
 */
@CascadeExperiment(
    traces = {"demo", "src/test/resources/traces/tiny-attention"},
    timeoutSeconds = 120)
final class CascadeExperimentIT {

  private static Experiment staticExperiment;
  private static Cascade cascadeBeforeAll;

  private Cascade cascade;
  private Experiment experiment;

  @BeforeAll
  static void lifecycleMethodsGetTheCascadeToo(Cascade cascade) {
    cascadeBeforeAll = cascade;
  }

  @Test
  void fieldsAndParameters_getTheOneCascadeOfTheClass(Cascade parameter, Experiment parameter2) {
    assertThat(cascade).isNotNull().isSameAs(parameter).isSameAs(cascadeBeforeAll);
    assertThat(experiment).isNotNull().isSameAs(parameter2).isSameAs(staticExperiment);
    assertThat(cascade.dataDir().getFileName().toString()).startsWith("cascade-experiment-");
    assertThat(cascade.traces().get("demo").state()).isEqualTo(TraceState.READY);
    assertThat(cascade.launcher().name()).isEqualTo("local");
  }

  @Test
  void run_demoOnTwoConfigs_givesEveryKernelOfEveryReplica() {
    ExperimentRun run = experiment.run("demo", "SM90_H100:2", "SM90_H200:2");

    assertThat(run.state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(run.traceId()).isEqualTo("demo");
    assertThat(run.configs())
        .extracting(ConfigResults::gpuConfig)
        .containsExactly("SM90_H100", "SM90_H200");
    for (ConfigResults config : run.configs()) {
      assertThat(config.succeeded()).isEqualTo(2);
      assertThat(config.kernels()).hasSize(5).allSatisfy(k -> assertThat(k.n()).isEqualTo(2));
      assertThat(config.total().cycles().mean()).isPositive();
    }
    KernelComparison flash = run.config("SM90_H200").kernel("flash_fwd");
    assertThat(flash.cycles().values()).hasSize(2);
    assertThat(flash.instructions().stdev()).isZero();
    assertThat(run.config("SM90_H100").kernel("flash_fwd").instructions().mean())
        .isEqualTo(flash.instructions().mean());
    assertThat(run.speedup("SM90_H100", "SM90_H200")).isPositive();
    assertThat(run.speedups("SM90_H100", "SM90_H200"))
        .hasSize(6)
        .last()
        .extracting(KernelSpeedup::name)
        .isEqualTo(KernelComparison.TOTAL);
    assertThat(cascade.runs().get(run.id()).sims()).hasSize(4);
  }

  @Test
  void run_traceFromAFolder_isCopiedInUnderItsFolderName() {
    ExperimentRun run = experiment.run("tiny-attention", "SM90_H100");

    assertThat(run.config("SM90_H100").kernels())
        .extracting(KernelComparison::name)
        .hasSize(2)
        .anyMatch(name -> name.startsWith("flash_fwd_kernel"));
  }

  @Test
  void run_unknownConfig_isCoresInvalidErrorNamingTheEntry() {
    assertThatThrownBy(() -> experiment.run("demo", "SM90_H100:1", "SM99_NOPE:1"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[1].gpu_config");
            })
        .hasMessageContaining("SM99_NOPE");
  }

  @Test
  void run_unknownTrace_listsTheTracesThereAre() {
    assertThatThrownBy(() -> experiment.run("opt-125m", "SM90_H100"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
        .hasMessageContaining("no trace \"opt-125m\"")
        .hasMessageContaining("its traces are: ")
        .hasMessageContaining("sample-llama-mlp")
        .hasMessageContaining("tiny-attention");
  }

  @Test
  void run_sampleTrace_isCoresConflict() {
    assertThatThrownBy(() -> experiment.run("sample-llama-mlp", "SM90_H100"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT))
        .hasMessageContaining("sample");
  }

  @Test
  void run_traceStillUploading_failsAfterTheTimeoutNamingTheTraceAndItsState() throws Exception {
    Path folder = cascade.traces().folderOf("half-uploaded");
    Files.createDirectories(folder.resolve("traces"));
    Files.writeString(folder.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");

    assertThatThrownBy(
            () -> experiment.withTimeout(Duration.ofMillis(500)).run("half-uploaded", "SM90_H100"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT))
        .hasMessageStartingWith("trace \"half-uploaded\" is still uploading after 500 ms")
        .hasMessageContaining("metadata.json");
  }

  @Test
  void run_failedTrace_givesItsReason() throws Exception {
    Path folder = cascade.traces().folderOf("crashed");
    Files.createDirectories(folder);
    Files.writeString(
        folder.resolve("metadata.json"), "{\"status\": \"failed\", \"error\": \"profiler OOM\"}");

    assertThatThrownBy(() -> experiment.run("crashed", "SM90_H100"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("trace \"crashed\" failed")
        .hasMessageContaining("profiler OOM");
  }

  @Test
  void run_notFinishedWithinTheTimeout_isCancelledAndSaysWhere() throws Exception {
    assertThatThrownBy(
            () -> experiment.withTimeout(Duration.ofMillis(1)).run("demo", "SM90_H100:1"))
        .isInstanceOfSatisfying(
            ExperimentException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
        .hasMessageContaining("did not finish within 1 ms and was cancelled")
        .hasMessageContaining("SM90_H100 replica 0");

    Run cancelled = cascade.runs().list().getFirst();
    assertThat(cascade.runs().await(cancelled.id(), Duration.ofSeconds(30)).state())
        .isEqualTo(RunState.CANCELLED);
  }

  @Nested
  final class NestedClasses {

    @Test
    void shareTheOuterClassCascade(Cascade nested) {
      assertThat(nested).isSameAs(cascadeBeforeAll);
    }
  }
}
