package dev.cascade.sail;

import static dev.cascade.core.testkit.TestApp.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.ProcessGroups;
import dev.cascade.agent.SimAgentMain;
import dev.cascade.agent.SimContract;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.testkit.TestApp;
import dev.cascade.sail.FakeSailService.ExecRecord;
import dev.cascade.sail.FakeSailService.ForkRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs through the {@link SailLauncher} on the fake Sail service, with Cascade's HTTP server
 * and the sim agent running the emulator as the simulator, in each fork, as {@code cascade serve
 * --sims sail} would.
 */
final class SailRunIT {

  private static final String OWN = "sb_app";
  private static final List<RunEntry> ENTRIES =
      List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1));
  private static final SailLauncherSettings FAST =
      SailLauncherSettings.defaults().withFirstBackoff(Duration.ofMillis(50));

  @TempDir Path dir;
  private Path dataDir;
  private FakeSailService sail;

  @BeforeEach
  void start() {
    Assumptions.assumeTrue(
        ProcessGroups.unavailableReason().isEmpty(),
        () -> "sims need process groups: " + ProcessGroups.unavailableReason().orElse(""));
    dataDir = dir.resolve("app");
    sail = new FakeSailService(dir.resolve("sail"), OWN, dataDir);
  }

  @AfterEach
  void stop() {
    if (sail != null) {
      sail.close();
    }
  }

  @Test
  void run_givesTheLocalLaunchersResultsWithOneCheckpointAndAForkPerSimReadingItsOwnCopy()
      throws Exception {
    List<String> simulator = TestApp.agentCommand("--speed", "0");
    List<ConfigResult> local = TestApp.localResults(dir.resolve("local"), simulator, ENTRIES);
    // Once the run's checkpoint is taken, the app's own copy of the trace is moved away: a sim
    // can only read the copy on its fork's disk.
    Path appTraceList = dataDir.resolve("s3/cascade/accelsim-traces/demo/traces/kernelslist.g");
    sail.afterCheckpoint(disk -> move(appTraceList, appTraceList.resolveSibling("moved-away")));

    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app = TestApp.start(dataDir, launcher, simulator, 0, b -> b)) {
      Run run = app.awaitFinished(app.create(ENTRIES).id());

      assertThat(run.sims())
          .allSatisfy(
              sim -> {
                assertThat(sim.state())
                    .as(sim.id() + ": " + sim.error())
                    .isEqualTo(SimState.SUCCEEDED);
                assertThat(sim.launcherName()).isEqualTo("sail");
              });
      assertThat(app.cascade().results().compare(run.id())).isEqualTo(local);
      assertThat(appTraceList).doesNotExist();

      assertThat(sail.checkpoints())
          .singleElement()
          .satisfies(
              checkpoint -> {
                assertThat(checkpoint.name()).isEqualTo("cascade-" + run.id());
                assertThat(checkpoint.sandboxId()).isEqualTo(OWN);
              });
      String checkpointId = sail.checkpoints().getFirst().id();
      Map<String, Sim> simsByRef =
          run.sims().stream().collect(Collectors.toMap(Sim::launcherRef, Function.identity()));
      assertThat(sail.forks())
          .hasSize(3)
          .allSatisfy(
              fork -> {
                assertThat(simsByRef).containsKey(fork.sandboxId());
                assertThat(fork.name())
                    .isEqualTo("cascade-" + simsByRef.get(fork.sandboxId()).id());
                assertThat(fork.checkpointId()).isEqualTo(checkpointId);
                assertThat(fork.restoreMemory()).isFalse();
              });
      assertThat(sail.execs())
          .hasSize(3)
          .allSatisfy(
              exec -> {
                Sim sim = simsByRef.get(exec.sandboxId());
                assertThat(exec.idempotencyKey()).isEqualTo(sim.id());
                assertThat(exec.environment())
                    .containsEntry("CASCADE_DATA_DIR", exec.disk().toString())
                    .containsEntry(
                        "CASCADE_TRACE_DIR",
                        exec.disk().resolve("s3/cascade/accelsim-traces/demo").toString());
                assertThat(
                        exec.disk().resolve("s3/cascade/accelsim-traces/demo/traces/kernelslist.g"))
                    .isRegularFile();
                assertThat(exec.disk().resolve("work/sims/" + sim.id() + ".out")).exists();
              });
      assertThat(sail.reattachedExecs()).isZero();
      // Each fork is terminated once its sim has reported its end.
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(sail.terminated())
                      .containsExactlyInAnyOrderElementsOf(simsByRef.keySet()));
    }
  }

  @Test
  void restart_midLaunchReusesTheCheckpointAndStartsNoSimTwice() throws Exception {
    // The first two sims start, but the answers to their launches never come back: the app goes
    // down with two launches in flight and two sims still waiting.
    sail.faults().loseExecReplies(2);
    List<String> simulator = TestApp.agentCommand("--speed", "0");
    SailLauncherSettings settings = FAST.withCallTimeout(Duration.ofMinutes(1));
    String runId;
    int port;
    try (SailLauncher launcher = new SailLauncher(sail, settings);
        TestApp app = TestApp.start(dataDir, launcher, simulator, 0, b -> b.maxLaunches(2))) {
      port = app.server().port();
      runId = app.create(List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 2))).id();
      await().atMost(WAIT).until(() -> sail.hungCalls() == 2);
      assertThat(app.cascade().runs().get(runId).sims())
          .extracting(Sim::state)
          .containsExactlyInAnyOrder(
              SimState.LAUNCHING, SimState.LAUNCHING, SimState.PENDING, SimState.PENDING);
    }
    assertThat(sail.checkpoints()).hasSize(1);

    try (SailLauncher launcher = new SailLauncher(sail, settings);
        TestApp app = TestApp.start(dataDir, launcher, simulator, port, b -> b)) {
      Run run = app.awaitFinished(runId);

      TestApp.assertAllSucceeded(run);
      assertThat(app.cascade().results().compare(runId))
          .allSatisfy(config -> assertThat(config.succeeded()).isEqualTo(2));
    }
    assertThat(sail.checkpointCalls()).isEqualTo(1);
    assertThat(sail.forks()).extracting(ForkRecord::name).doesNotHaveDuplicates().hasSize(4);
    assertThat(sail.execs())
        .extracting(ExecRecord::idempotencyKey)
        .doesNotHaveDuplicates()
        .hasSize(4);
  }

  @Test
  void cancel_terminatesEveryFork() throws Exception {
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app =
            TestApp.start(dataDir, launcher, TestApp.agentCommand("--speed", "1000"), 0, b -> b)) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 3)));
      app.awaitSims(run.id(), sim -> sim.state() == SimState.RUNNING);
      List<String> forks =
          app.cascade().runs().get(run.id()).sims().stream().map(Sim::launcherRef).toList();
      assertThat(forks).allMatch(sail::isRunning);

      app.cascade().runs().cancel(run.id());

      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> assertThat(sail.terminated()).containsExactlyInAnyOrderElementsOf(forks));
      assertThat(forks).noneMatch(sail::isRunning);
      assertThat(app.cascade().runs().get(run.id()).state()).isEqualTo(RunState.CANCELLED);
    }
  }

  @Test
  void simToken_isInTheEnvironmentOfNoProcessInTheFork_andTheSimReportsWithIt() throws Exception {
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app =
            TestApp.start(dataDir, launcher, TestApp.agentCommand("--speed", "1000"), 0, b -> b)) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 1)));
      // Running: its heartbeats, sent with its token, were taken.
      app.awaitSims(run.id(), sim -> sim.state() == SimState.RUNNING);
      ExecRecord exec = sail.execs().getFirst();
      String token = exec.environment().get(SimContract.SIM_TOKEN);
      assertThat(token).as("the token travels in the exec's environment").isNotBlank();

      // The exec's shell has made way for the agent, which holds the token in no environment, nor
      // does anything it started.
      ProcessHandle agent = ProcessHandle.of(exec.pid()).orElseThrow();
      assertThat(commandLine(agent.pid())).contains(SimAgentMain.class.getName());
      List<ProcessHandle> processes = new ArrayList<>(List.of(agent));
      processes.addAll(agent.descendants().toList());
      for (ProcessHandle process : processes) {
        assertThat(environment(process.pid()))
            .as("the environment of process " + process.pid())
            .doesNotContain(token)
            .doesNotContain(SimContract.SIM_TOKEN);
      }
      app.cascade().runs().cancel(run.id());
    }
  }

  /** A process's environment; an undumpable one (the agent) only root may read. */
  private static String environment(long pid) throws IOException {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "environ"));
    } catch (AccessDeniedException e) {
      Assumptions.abort(
          "the agent makes itself undumpable, so only root may read its environment: run the"
              + " tests as root to check it");
      throw e;
    }
  }

  private static String commandLine(long pid) throws IOException {
    return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
  }

  @Test
  void checkpointFailure_failsEverySimWithTheReason() throws Exception {
    sail.faults().failCheckpoints(Integer.MAX_VALUE, false);
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app = TestApp.start(dataDir, launcher, TestApp.agentCommand(), 0, b -> b)) {
      Run run = app.awaitFinished(app.create(ENTRIES).id());

      assertThat(run.state()).isEqualTo(RunState.FAILED);
      assertThat(run.sims())
          .extracting(Sim::error)
          .containsOnly(
              "launch failed: cannot checkpoint the app's sandbox sb_app as cascade-"
                  + run.id()
                  + ": checkpoint of sb_app failed: FAILED_PRECONDITION (injected)");
      assertThat(sail.forks()).isEmpty();
    }
  }

  @Test
  void transientCheckpointAndForkFailures_areTriedAgainAndTheRunSucceeds() throws Exception {
    sail.faults().failCheckpoints(2, true).failForks(2, true);
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app =
            TestApp.start(dataDir, launcher, TestApp.agentCommand("--speed", "0"), 0, b -> b)) {
      Run run = app.awaitFinished(app.create(ENTRIES).id());

      assertThat(run.state()).as(run.sims().toString()).isEqualTo(RunState.SUCCEEDED);
      assertThat(sail.checkpoints()).hasSize(1);
      assertThat(sail.forks()).hasSize(3);
    }
  }

  @Test
  void forkFailure_failsTheSimWithTheReason() throws Exception {
    sail.faults().failForks(Integer.MAX_VALUE, false);
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app = TestApp.start(dataDir, launcher, TestApp.agentCommand(), 0, b -> b)) {
      Run run = app.awaitFinished(app.create(List.of(new RunEntry("SM90_H100", 2))).id());

      assertThat(run.state()).isEqualTo(RunState.FAILED);
      String checkpointId = sail.checkpoints().getFirst().id();
      assertThat(run.sims())
          .allSatisfy(
              sim ->
                  assertThat(sim.error())
                      .isEqualTo(
                          "launch failed: cannot start sandbox cascade-"
                              + sim.id()
                              + " from checkpoint "
                              + checkpointId
                              + ": sandbox from "
                              + checkpointId
                              + " failed: FAILED_PRECONDITION (injected)"));
    }
  }

  @Test
  void hangingExec_failsTheSimAfterItsTriesAndTerminatesItsFork() throws Exception {
    sail.faults().hangExecs(Integer.MAX_VALUE);
    SailLauncherSettings settings = FAST.withCallTimeout(Duration.ofMillis(300));
    try (SailLauncher launcher = new SailLauncher(sail, settings);
        TestApp app = TestApp.start(dataDir, launcher, TestApp.agentCommand(), 0, b -> b)) {
      Run run = app.awaitFinished(app.create(List.of(new RunEntry("SM90_H100", 2))).id());

      assertThat(run.state()).isEqualTo(RunState.FAILED);
      assertThat(run.sims())
          .allSatisfy(
              sim ->
                  assertThat(sim.error())
                      .startsWith("launch failed: cannot start sim " + sim.id() + " in sandbox sb_")
                      .endsWith("(3 tries): Sail did not answer within 300 ms"));
      assertThat(sail.execs()).isEmpty();
      assertThat(sail.terminated())
          .containsExactlyInAnyOrderElementsOf(
              sail.forks().stream().map(ForkRecord::sandboxId).toList());
    }
  }

  @Test
  void vanishedSandbox_makesItsSimLostThenFailedAndLeavesTheOthersRunning() throws Exception {
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app =
            TestApp.start(
                dataDir,
                launcher,
                TestApp.agentCommand("--speed", "1000"),
                0,
                b ->
                    b.heartbeatTimeout(Duration.ofSeconds(1))
                        .monitorInterval(Duration.ofMillis(200)))) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 2)));
      app.awaitSims(run.id(), sim -> sim.state() == SimState.RUNNING);
      Sim gone = app.cascade().runs().get(run.id()).sims().get(0);
      Sim other = app.cascade().runs().get(run.id()).sims().get(1);

      sail.vanish(gone.launcherRef());

      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(app.cascade().runs().sim(gone.id()).state()).isEqualTo(SimState.LOST));
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(app.cascade().runs().sim(gone.id()).state())
                      .isEqualTo(SimState.FAILED));
      assertThat(app.cascade().runs().sim(gone.id()).error()).matches("no heartbeat for 1\\ds");
      assertThat(app.cascade().runs().sim(other.id()).state()).isEqualTo(SimState.RUNNING);
      assertThat(sail.isRunning(other.launcherRef())).isTrue();
      app.cascade().runs().cancel(run.id());
    }
  }

  @Test
  void launches_areAtMostEightAtOnce() throws Exception {
    sail.forkDelay(Duration.ofMillis(300));
    try (SailLauncher launcher = new SailLauncher(sail, FAST);
        TestApp app = TestApp.start(dataDir, launcher, List.of("true"), 0, b -> b)) {
      Run run = app.create(List.of(new RunEntry("SM90_H100", 12)));
      await().atMost(WAIT).until(() -> sail.execs().size() == 12);

      assertThat(sail.peakForksInFlight()).isEqualTo(8);
      assertThat(sail.checkpoints()).hasSize(1);
      app.cascade().runs().cancel(run.id());
    }
  }

  private static void move(Path from, Path to) {
    try {
      Files.move(from, to);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
