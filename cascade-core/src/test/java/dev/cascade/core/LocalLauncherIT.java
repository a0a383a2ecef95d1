package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.SimContract;
import dev.cascade.agent.TestContracts;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LocalLauncherIT {

  @TempDir Path dir;
  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(2));
  private String ref;

  @BeforeEach
  void requireProcessGroups() {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        launcher.unavailableReason().isEmpty(),
        () -> "the local launcher cannot run here: " + launcher.unavailableReason().orElse(""));
  }

  @AfterEach
  void stopWhatWeStarted() {
    if (ref != null) {
      launcher.stop(ref);
    }
  }

  @Test
  void launch_runsTheCommandWithItsEnvironmentAndOutputFile() throws Exception {
    Path output = dir.resolve("out/s_1.out");

    ref = launcher.launch(launch("sh", "-c", "echo sim=$CASCADE_SIM_ID; echo oops >&2", output));

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(output).content().contains("sim=s_1").contains("oops"));
    assertThat(Long.parseLong(ref)).isPositive();
  }

  @Test
  void launch_givesTheSimOnlyItsContractItsExtrasAndTheBasics() throws Exception {
    Set<String> allowed = new TreeSet<>(LocalLauncher.BASE_VARIABLES);
    allowed.addAll(contract().toEnvironment().keySet());
    allowed.add("PASSED_ON");
    // The shell adds a few of its own; they are not the app's.
    allowed.addAll(List.of("PWD", "SHLVL", "_", "OLDPWD"));
    Set<String> appOnly = new TreeSet<>(System.getenv().keySet());
    appOnly.removeAll(allowed);
    Assumptions.assumeFalse(appOnly.isEmpty(), "the test JVM has no variable a sim must not get");
    Path env = dir.resolve("env");
    SimLaunch launch =
        new SimLaunch(
            contract(),
            List.of("sh", "-c", "env > " + env),
            Map.of("PASSED_ON", "yes"),
            dir,
            dir.resolve("s.out"));

    ref = launcher.launch(launch);

    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(env) && Files.size(env) > 0);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(Long.parseLong(ref)).isEmpty());
    Set<String> names = new TreeSet<>();
    for (String line : Files.readAllLines(env)) {
      int equals = line.indexOf('=');
      if (equals > 0) {
        names.add(line.substring(0, equals));
      }
    }
    assertThat(names).contains("PASSED_ON").doesNotContain(SimContract.SIM_TOKEN, "CASCADE_TOKEN");
    assertThat(names).isSubsetOf(allowed).doesNotContainAnyElementsOf(appOnly);
  }

  @Test
  void launch_givesTheTokenAsTheFirstLineOfStdin_notInTheEnvironmentOrCommandLine()
      throws Exception {
    Path seen = dir.resolve("seen");
    Path output = dir.resolve("s.out");

    ref =
        launcher.launch(
            launch(
                "sh",
                "-c",
                "read -r token; tr '\\0' '\\n' < /proc/$$/environ > "
                    + seen
                    + ".env; tr '\\0' ' ' < /proc/$$/cmdline > "
                    + seen
                    + ".cmd; echo \"$token\" > "
                    + seen,
                output));

    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(seen) && Files.size(seen) > 0);
    String token = contract().simToken();
    assertThat(Files.readString(seen).strip()).isEqualTo(token);
    assertThat(Files.readString(Path.of(seen + ".env"))).doesNotContain(token);
    assertThat(Files.readString(Path.of(seen + ".cmd"))).doesNotContain(token);
  }

  @Test
  void stop_endsTheWholeGroupIncludingGrandchildren() throws Exception {
    Path pids = dir.resolve("pids");
    // The sim starts a child that starts a grandchild; both ignore nothing and sleep.
    String script =
        "sh -c 'sleep 300 & echo $! >> " + pids + "; wait' & echo $! >> " + pids + "; sleep 300";
    ref = launcher.launch(launch("sh", "-c", script, dir.resolve("s.out")));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> Files.exists(pids) && Files.readAllLines(pids).size() == 2);
    List<Long> descendants = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
    assertThat(descendants).allMatch(pid -> ProcessHandle.of(pid).isPresent());

    launcher.stop(ref);

    assertThat(ProcessHandle.of(Long.parseLong(ref))).isEmpty();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(descendants)
                    .noneMatch(
                        pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
    ref = null;
  }

  @Test
  void stop_killsASimThatIgnoresSigterm() throws Exception {
    Path ready = dir.resolve("ready");
    ref =
        launcher.launch(
            launch(
                "sh",
                "-c",
                "trap '' TERM; touch " + ready + "; while :; do sleep 1; done",
                dir.resolve("s.out")));
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(ready));

    launcher.stop(ref);

    assertThat(ProcessHandle.of(Long.parseLong(ref))).isEmpty();
    ref = null;
  }

  @Test
  void stop_isHarmlessForAGoneOrRepeatedRef() throws Exception {
    String gone = launcher.launch(launch("true", dir.resolve("s.out")));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(Long.parseLong(gone)).isEmpty());

    launcher.stop(gone);
    launcher.stop(gone);
  }

  @Test
  void exitOf_givesTheExitCodeOnceTheProcessEnded_andHasEndedSaysSo() throws Exception {
    // The sim ends when the test says so, not after a time a loaded machine may overrun.
    Path go = dir.resolve("go");
    ref =
        launcher.launch(
            launch(
                "sh",
                "-c",
                "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 3",
                dir.resolve("s.out")));
    assertThat(launcher.hasEnded(ref)).isFalse();
    Files.createFile(go);

    assertThat(launcher.exitOf(ref).orElseThrow().get(10, TimeUnit.SECONDS)).isEqualTo(3);
    assertThat(launcher.hasEnded(ref)).isTrue();
    assertThat(launcher.exitOf("4194304")).as("a process it did not start").isEmpty();
  }

  @Test
  void exitOf_doesNotCompleteWhileSomethingTheSimStartedStillRuns() throws Exception {
    Path pid = dir.resolve("pid");
    ref =
        launcher.launch(
            launch("sh", "-c", "sleep 300 & echo $! > " + pid + "; exit 0", dir.resolve("s.out")));
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pid));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(Long.parseLong(ref)).isEmpty());

    CompletableFuture<Integer> exit = launcher.exitOf(ref).orElseThrow();
    assertThatThrownBy(() -> exit.get(500, TimeUnit.MILLISECONDS))
        .isInstanceOf(TimeoutException.class);
    assertThat(launcher.hasEnded(ref)).isFalse();
  }

  @Test
  void findRunning_findsASimsProcessGroupByItsSimIdFromAnotherLauncher() throws Exception {
    // An id of its own: other builds on this machine run sims named s_1 too.
    String simId = "s_find" + ProcessHandle.current().pid() + "x" + System.nanoTime();
    ref =
        launcher.launch(
            new SimLaunch(
                TestContracts.of(simId, "r_1", dir, dir.resolve("trace")),
                List.of("sh", "-c", "sleep 300 & wait"),
                Map.of(),
                dir,
                dir.resolve("s.out")));

    LocalLauncher afterARestart = new LocalLauncher();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(afterARestart.findRunning(java.util.Set.of(simId, "s_other")))
                    .isEqualTo(Map.of(simId, ref)));
    launcher.stop(ref);
    assertThat(afterARestart.findRunning(java.util.Set.of(simId))).isEmpty();
    ref = null;
  }

  @Test
  void launch_failsClearlyWhenTheProgramDoesNotExist() {
    assertThatThrownBy(() -> launcher.launch(launch("no-such-simulator-xyz", dir.resolve("s.out"))))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining("no-such-simulator-xyz")
        .hasMessageContaining("CASCADE_SIM_CMD");
  }

  private SimLaunch launch(String program, Path output) {
    return new SimLaunch(contract(), List.of(program), Map.of(), dir, output);
  }

  private SimLaunch launch(String program, String flag, String script, Path output)
      throws IOException {
    return new SimLaunch(contract(), List.of(program, flag, script), Map.of(), dir, output);
  }

  private SimContract contract() {
    return TestContracts.of("s_1", "r_1", dir, dir.resolve("trace"));
  }
}
