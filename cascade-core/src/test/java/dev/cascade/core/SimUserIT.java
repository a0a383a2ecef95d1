package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimContract;
import dev.cascade.agent.TestContracts;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cascade serve --sim-user}: local sims as another OS user, or a clear refusal. */
final class SimUserIT {

  @TempDir Path dir;
  private LocalLauncher launcher;
  private String ref;

  @AfterEach
  void stopWhatWeStarted() {
    if (ref != null) {
      launcher.stop(ref);
    }
  }

  private static boolean root() throws Exception {
    return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue() == 0;
  }

  @Test
  void anUnknownUser_isRefusedWithItsName() {
    assertThatThrownBy(() -> new LocalLauncher().withSimUser("no-such-user-i28"))
        .isInstanceOf(CascadeException.class)
        .hasMessage(
            "cannot run sims as user \"no-such-user-i28\": there is no such user on this machine"
                + " (id -u no-such-user-i28)");
    assertThatThrownBy(() -> new LocalLauncher().withSimUser("bad name;"))
        .hasMessageContaining("it is not a user name");
  }

  @Test
  void theServersOwnUser_isRefused() {
    String me = System.getProperty("user.name");
    assertThatThrownBy(() -> new LocalLauncher().withSimUser(me))
        .hasMessageContaining("it is the server's own user");
  }

  @Test
  void asRoot_aSimRunsAsTheUser_withItsTokenOnStdin_andCannotReadTheServersEnvironment()
      throws Exception {
    Assumptions.assumeTrue(root(), "runuser needs the server to be root");
    launcher = new LocalLauncher(Duration.ofSeconds(2)).withSimUser("nobody");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    SimContract contract = TestContracts.of("s_1", "r_1", dir, dir.resolve("trace"));
    Path work = dir.resolve("work/sims/s_1");
    long server = ProcessHandle.current().pid();
    String script =
        "read -r t; echo \"$(id -un) $t\" > seen.tmp; cat /proc/"
            + server
            + "/environ > /dev/null 2>&1 && echo readable >> seen.tmp; mv seen.tmp seen";
    SimLaunch launch =
        new SimLaunch(
            contract, List.of("sh", "-c", script), Map.of(), work, dir.resolve("out/s_1.out"));

    ref = launcher.launch(launch);

    Path seen = work.resolve("seen");
    await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(seen));
    assertThat(Files.readString(seen)).isEqualTo("nobody " + contract.simToken() + "\n");
    assertThat(Files.getOwner(work).getName()).isEqualTo("nobody");
    assertThat(launcher.simUser()).hasValue("nobody");
    assertThat(launcher.withSlots(2).simUser()).hasValue("nobody");
  }
}
