package dev.cascade.sail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.agent.TestContracts;
import dev.cascade.core.CascadeException;
import dev.cascade.core.Launchers;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

final class SailLauncherTest {

  @Test
  void serviceLoader_findsTheSailLauncher() {
    assertThat(Launchers.discover())
        .filteredOn(launcher -> launcher.name().equals("sail"))
        .singleElement()
        .isInstanceOf(SailLauncher.class);
  }

  @Test
  void byName_saysWhySailCannotBeUsedWithoutTheCli() {
    Optional<String> reason = new SailLauncher().unavailableReason();
    Assumptions.assumeTrue(
        reason.isPresent(),
        "Sail is set up here (CASCADE_SAIL_* is set), so the not-set-up refusal cannot be seen");

    assertThatThrownBy(() -> Launchers.byName("sail"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("the \"sail\" launcher cannot be used: " + reason.get())
        .hasMessageContaining("local: ");
  }

  @Test
  void launch_failsClearlyWhenTheClientCannotBeUsed() {
    Launcher launcher = new SailLauncher(new UnusableClient("SAIL_API_KEY is not set"));

    assertThat(launcher.unavailableReason()).contains("SAIL_API_KEY is not set");
    assertThatThrownBy(() -> launcher.launch(launch()))
        .isInstanceOf(LaunchException.class)
        .hasMessage("the sail launcher cannot run here: SAIL_API_KEY is not set");
  }

  @Test
  void stop_refusesTheAppsOwnSandboxAndBlankRefs() {
    Launcher launcher = new SailLauncher(new UnusableClient("no"));

    assertThatThrownBy(() -> launcher.stop("sb_app"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("refusing to terminate \"sb_app\": it is the app's own sandbox");
    assertThatThrownBy(() -> launcher.stop(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");
  }

  @Test
  void simCommand_runsTheSimInItsWorkFolderWithItsOutputAppendedAndItsTokenOnStdin() {
    assertThat(SailLauncher.simCommand(launch()))
        .containsExactly(
            "sh",
            "-c",
            SailLauncher.SIM_SCRIPT,
            "cascade-sim",
            "/data/work/sims/s_1.out",
            "/data/work/sims/s_1",
            "cascade",
            "sim-agent",
            "--",
            "accel-sim.out");
    assertThat(SailLauncher.SIM_SCRIPT)
        .contains("mkdir -p \"$dir\"")
        .contains("cd \"$dir\"")
        .contains("token=$CASCADE_SIM_TOKEN; unset CASCADE_SIM_TOKEN\n")
        .endsWith("exec \"$@\" >>\"$out\" 2>&1 <<END_OF_TOKEN\n$token\nEND_OF_TOKEN\n");
  }

  @Test
  void settings_rejectValuesThatCannotWork() {
    SailLauncherSettings defaults = SailLauncherSettings.defaults();

    assertThat(defaults.attempts()).isEqualTo(3);
    assertThat(defaults.launchBudget()).isLessThan(Duration.ofMinutes(5));
    assertThatThrownBy(() -> defaults.withAttempts(0))
        .hasMessage("attempts must be 1 to 10; got 0");
    assertThatThrownBy(() -> defaults.withCallTimeout(Duration.ZERO))
        .hasMessage("callTimeout must be positive; got PT0S");
    assertThatThrownBy(() -> defaults.withFirstBackoff(Duration.ofSeconds(-1)))
        .hasMessage("firstBackoff cannot be negative; got PT-1S");
  }

  @Test
  void describe_writesDurationsTheWayPeopleRead() {
    assertThat(SailLauncher.describe(Duration.ofMillis(300))).isEqualTo("300 ms");
    assertThat(SailLauncher.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
    assertThat(SailLauncher.describe(Duration.ofMinutes(2))).isEqualTo("2 min");
  }

  private static SimLaunch launch() {
    return new SimLaunch(
        TestContracts.of("s_1", "r_1", Path.of("/data"), Path.of("/data/traces/t1")),
        List.of("cascade", "sim-agent", "--", "accel-sim.out"),
        Map.of(),
        Path.of("/data/work/sims/s_1"),
        Path.of("/data/work/sims/s_1.out"));
  }

  /** A client that is never set up: every call would be a mistake. */
  private record UnusableClient(String reason) implements SailClient {
    @Override
    public Optional<String> unavailableReason() {
      return Optional.of(reason);
    }

    @Override
    public String ownSandboxId() {
      return "sb_app";
    }

    @Override
    public Optional<String> findCheckpoint(String sandboxId, String name) {
      throw new AssertionError("not set up");
    }

    @Override
    public String checkpoint(String sandboxId, String name) {
      throw new AssertionError("not set up");
    }

    @Override
    public Optional<String> findSandbox(String name) {
      throw new AssertionError("not set up");
    }

    @Override
    public String createFromCheckpoint(String checkpointId, String name, boolean restoreMemory) {
      throw new AssertionError("not set up");
    }

    @Override
    public String exec(String sandboxId, SailExec exec) {
      throw new AssertionError("not set up");
    }

    @Override
    public void terminate(String sandboxId) {
      throw new AssertionError("not set up");
    }
  }
}
