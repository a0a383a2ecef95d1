package dev.cascade.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.RunState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * An experiment on a running Cascade ({@code server}): here an embedded one with its HTTP API,
 * reached only over HTTP.
 */
final class RemoteExperimentIT {

  private static ExperimentEnvironment server;
  private static Experiment remote;

  @BeforeAll
  static void startAServer() {
    server =
        ExperimentEnvironment.start(
            new ExperimentSettings(List.of("demo"), "local", "", "", null, Duration.ofMinutes(2)));
    remote =
        new Experiment(new RemoteBackend(server.serverUrl(), null).check(), Duration.ofMinutes(2));
  }

  @AfterAll
  static void stopTheServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void run_givesTheSameResultsAsTheServerHas() {
    ExperimentRun run = remote.run("demo", "SM90_H100:2", "SM90_H200:1");

    assertThat(run.state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(run.config("SM90_H100").kernels()).hasSize(5).allMatch(k -> k.n() == 2);
    assertThat(run.config("SM90_H200").kernel("flash_fwd").simulatedTimeUs().n()).isEqualTo(1);
    Cascade cascade = server.cascade().orElseThrow();
    assertThat(run.configs())
        .extracting(ConfigResults::total)
        .extracting(KernelComparison::cycles)
        .containsExactlyElementsOf(
            cascade.results().compare(run.id()).stream().map(c -> c.total().cycles()).toList());
  }

  @Test
  void run_unknownConfig_isTheServersErrorWithItsField() {
    assertThatThrownBy(() -> remote.run("demo", "SM90_H100", "SM99_NOPE"))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[1].gpu_config");
            })
        .hasMessageContaining("SM99_NOPE");
  }

  @Test
  void run_unknownTrace_namesTheServerAndItsTraces() {
    assertThatThrownBy(() -> remote.run("opt-125m", "SM90_H100"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
        .hasMessageContaining("no trace \"opt-125m\" on the Cascade at " + server.serverUrl())
        .hasMessageContaining("demo, sample-llama-mlp");
  }

  @Test
  void annotatedClass_withServerParameter_getsAnExperimentButNoCascade() {
    EngineExecutionResults results =
        TestKit.run(OnAServer.class, Map.of(ExperimentSettings.SERVER, server.serverUrl()));

    assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
    assertThat(TestKit.testFailure(results))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .hasMessageStartingWith("cannot inject a Cascade into parameter")
                    .hasMessageContaining(
                        "the experiment runs on the Cascade at " + server.serverUrl()));
  }

  // ------------------------------------------------------------------ samples, run by TestKit

  @CascadeExperiment
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class OnAServer {
    @Test
    void experiment(Experiment experiment) {
      assertThat(experiment.run("demo", "SM90_H100").state()).isEqualTo(RunState.SUCCEEDED);
    }

    @Test
    void cascade(Cascade cascade) {}
  }
}
