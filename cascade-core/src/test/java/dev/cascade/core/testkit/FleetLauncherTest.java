package dev.cascade.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.FleetRun;
import dev.cascade.agent.TestContracts;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.SimLaunch;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class FleetLauncherTest {

  /** No app listens and no trace exists: members are counted as added, then end unemulated. */
  private final FleetRun fleet =
      EmulatorFleet.builder()
          .mainUrl(URI.create("http://127.0.0.1:9"))
          .log(new PrintStream(OutputStream.nullOutputStream()))
          .build()
          .start();

  @AfterEach
  void stop() {
    fleet.close();
  }

  private static SimLaunch launch(String simId) {
    return new SimLaunch(
        TestContracts.of(simId, "r_1", Path.of("/data"), Path.of("/data/traces/none")),
        List.of("emulated-in-the-test"),
        Map.of(),
        Path.of("/data/work/sims/" + simId),
        Path.of("/data/work/sims/" + simId + ".out"));
  }

  @Test
  void holdUntilRelease_notesLaunches_andHandsThemToTheFleetOnlyOnRelease() {
    FleetLauncher launcher = FleetLauncher.builder().holdUntilRelease().build();

    List<LaunchResult> results = launcher.launchAll(List.of(launch("s_1"), launch("s_2")));
    launcher.sendTo(fleet);

    assertThat(results).extracting(LaunchResult::ref).containsExactly("fleet:s_1", "fleet:s_2");
    assertThat(launcher.launched()).isEqualTo(2);
    assertThat(fleet.added()).isZero();
    launcher.release();
    assertThat(fleet.added()).isEqualTo(2);
    assertThat(launcher.launch(launch("s_3"))).isEqualTo("fleet:s_3");
    assertThat(fleet.added()).as("after the release, launches go straight on").isEqualTo(3);
    assertThat(launcher.launched()).isEqualTo(3);
  }

  @Test
  void withoutHold_eachLaunchJoinsTheFleetAtOnce_andBatchesOnlyWhenAsked() {
    FleetLauncher launcher = FleetLauncher.builder().speed(0).build();
    launcher.sendTo(fleet);

    launcher.launch(launch("s_1"));

    assertThat(fleet.added()).isEqualTo(1);
    assertThat(launcher.launchesInBatches()).isFalse();
    assertThat(FleetLauncher.builder().inBatches().build().launchesInBatches()).isTrue();
  }

  @Test
  void launch_beforeSendTo_saysWhatIsMissing() {
    FleetLauncher launcher = FleetLauncher.builder().build();

    assertThatThrownBy(() -> launcher.launch(launch("s_1")))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("call sendTo first");
    assertThat(launcher.launched()).isZero();
  }

  @Test
  void speed_rejectsANegativeValue() {
    assertThatThrownBy(() -> FleetLauncher.builder().speed(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("speed must be 0 or more; got -1.0");
  }
}
