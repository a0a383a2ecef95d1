package dev.cascade.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineExecutionResults;

final class EnabledIfLauncherAvailableTest {

  @Test
  void launcherNotOnTheClassPath_skipsTheTestSayingWhichLaunchersThereAre() {
    EngineExecutionResults results = TestKit.run(NeedsAMissingLauncher.class);

    assertThat(results.testEvents().skipped().stream())
        .singleElement()
        .satisfies(
            event ->
                assertThat(event.getPayload(String.class))
                    .hasValueSatisfying(
                        reason ->
                            assertThat(reason)
                                .startsWith("no launcher called \"gpu-farm\" is on the class path")
                                .contains("local (available)")));
    assertThat(results.testEvents().started().count()).isZero();
  }

  @Test
  void localLauncher_runsTheTest() {
    EngineExecutionResults results = TestKit.run(NeedsTheLocalLauncher.class);

    assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
    assertThat(results.testEvents().skipped().count()).isZero();
  }

  @Test
  void onTheClass_skipsTheWholeClassBeforeAnyCascadeStarts() {
    EngineExecutionResults results = TestKit.run(ExperimentOnAMissingLauncher.class);

    assertThat(results.containerEvents().skipped().count()).isEqualTo(1);
    assertThat(results.containerEvents().failed().count()).isZero();
    assertThat(results.testEvents().started().count()).isZero();
  }

  @Test
  void launcherThatCannotRunHere_isDisabledWithItsReason() {
    ConditionEvaluationResult result =
        LauncherAvailableCondition.evaluate(
            "sail", List.of(new Unavailable("sail", "SAIL_API_KEY is not set")));

    assertThat(result.isDisabled()).isTrue();
    assertThat(result.getReason())
        .hasValue("the \"sail\" launcher cannot be used here: SAIL_API_KEY is not set");
  }

  @Test
  void noLaunchersAtAll_saySo() {
    ConditionEvaluationResult result = LauncherAvailableCondition.evaluate("local", List.of());

    assertThat(result.isDisabled()).isTrue();
    assertThat(result.getReason()).hasValueSatisfying(r -> assertThat(r).contains("no launchers"));
  }

  // ------------------------------------------------------------------ samples, run by TestKit

  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class NeedsAMissingLauncher {
    @Test
    @EnabledIfLauncherAvailable("gpu-farm")
    void skipped() {}
  }

  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class NeedsTheLocalLauncher {
    @Test
    @EnabledIfLauncherAvailable("local")
    void runs() {}
  }

  @EnabledIfLauncherAvailable("gpu-farm")
  @CascadeExperiment(launcher = "gpu-farm")
  @ExtendWith(TestKit.OnlyInTestKit.class)
  static final class ExperimentOnAMissingLauncher {
    @Test
    void skipped(Experiment experiment) {}
  }

  private record Unavailable(String name, String reason) implements Launcher {
    @Override
    public Optional<String> unavailableReason() {
      return Optional.of(reason);
    }

    @Override
    public String launch(SimLaunch launch) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void stop(String launcherRef) {}
  }
}
