package dev.cascade.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * A test class set up wrongly fails as a whole, before any sim starts, with a message that says
 * what to change. Each case runs a small sample class through the JUnit engine.
 */
final class CascadeExtensionTest {

  @Test
  void unknownLauncher_failsTheClassListingEveryLauncherFound() {
    EngineExecutionResults results = TestKit.run(UnknownLauncher.class);

    assertThat(TestKit.classFailure(results, UnknownLauncher.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOfSatisfying(
                        CascadeException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID))
                    .hasMessageStartingWith("no launcher called \"gpu-farm\"\nlaunchers found:")
                    .hasMessageContaining("\n  local: "));
    assertThat(results.testEvents().started().count()).isZero();
  }

  @Test
  void launcherFromAConfigurationParameter_winsOverTheAnnotation() {
    EngineExecutionResults results =
        TestKit.run(NoTraces.class, Map.of(ExperimentSettings.LAUNCHER, "slurm"));

    assertThat(TestKit.classFailure(results, NoTraces.class))
        .hasValueSatisfying(
            failure -> assertThat(failure).hasMessageStartingWith("no launcher called \"slurm\""));
  }

  @Test
  void accelSimThatIsNotBuilt_failsTheClassNamingTheMissingSimulator() {
    EngineExecutionResults results = TestKit.run(AccelSimNotBuilt.class);

    assertThat(TestKit.classFailure(results, AccelSimNotBuilt.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                        "accelSim \"/nonexistent/accel-sim\" is not a built Accel-Sim: there is no"
                            + " executable /nonexistent/accel-sim/gpu-simulator/bin/release/"
                            + "accel-sim.out"));
  }

  @Test
  void accelSimAndServerTogether_areRefused() {
    EngineExecutionResults results =
        TestKit.run(
            NoTraces.class,
            Map.of(
                ExperimentSettings.ACCELSIM,
                "/opt/accel-sim",
                ExperimentSettings.SERVER,
                "http://127.0.0.1:9"));

    assertThat(TestKit.classFailure(results, NoTraces.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot both be set"));
  }

  @Test
  void traceEntryThatIsNoFolder_failsTheClassNamingThePath() {
    EngineExecutionResults results = TestKit.run(MissingTraceFolder.class);

    assertThat(TestKit.classFailure(results, MissingTraceFolder.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                        "@CascadeExperiment(traces) entry \"traces/opt-125m\" is neither \"demo\""
                            + " nor a trace folder"));
  }

  @Test
  void serverThatCannotBeReached_failsTheClassNamingIt() {
    EngineExecutionResults results =
        TestKit.run(NoTraces.class, Map.of(ExperimentSettings.SERVER, "http://127.0.0.1:9"));

    assertThat(TestKit.classFailure(results, NoTraces.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOfSatisfying(
                        CascadeException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE))
                    .hasMessageStartingWith("cannot reach the Cascade at http://127.0.0.1:9"));
  }

  @Test
  void serverThatIsNoUrl_isRefused() {
    EngineExecutionResults results =
        TestKit.run(NoTraces.class, Map.of(ExperimentSettings.SERVER, "gpu-box:8080"));

    assertThat(TestKit.classFailure(results, NoTraces.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                        "server \"gpu-box:8080\" is not the URL of a running Cascade"));
  }

  @Test
  void extendWithWithoutTheAnnotation_saysToUseTheAnnotation() {
    EngineExecutionResults results = TestKit.run(ExtendWithOnly.class);

    assertThat(TestKit.classFailure(results, ExtendWithOnly.class))
        .hasValueSatisfying(
            failure ->
                assertThat(failure)
                    .isInstanceOf(ExtensionConfigurationException.class)
                    .hasMessageContaining("annotate the class with @CascadeExperiment"));
  }

  // ------------------------------------------------------------------ samples, run by TestKit

  @CascadeExperiment(launcher = "gpu-farm")
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class UnknownLauncher {
    @Test
    void neverRuns(Cascade cascade) {}
  }

  @CascadeExperiment(traces = {})
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class NoTraces {
    @Test
    void neverRuns(Experiment experiment) {}
  }

  @CascadeExperiment(accelSim = "/nonexistent/accel-sim")
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class AccelSimNotBuilt {
    @Test
    void neverRuns(Experiment experiment) {}
  }

  @CascadeExperiment(traces = {"demo", "traces/opt-125m"})
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class MissingTraceFolder {
    @Test
    void neverRuns(Experiment experiment) {}
  }

  @ExtendWith(CascadeExtension.class)
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class ExtendWithOnly {
    @Test
    void neverRuns(Experiment experiment) {}
  }
}
