package dev.cascade.sail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.agent.ProcessGroups;
import dev.cascade.agent.TestContracts;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.sail.FakeSailService.ExecRecord;
import dev.cascade.sail.FakeSailService.ForkRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher on the fake Sail service: what it asks Sail for, and what it does when Sail fails.
 */
final class SailLauncherIT {

  private static final String OWN = "sb_app";
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final SailLauncherSettings FAST =
      SailLauncherSettings.defaults()
          .withFirstBackoff(Duration.ofMillis(20))
          .withCallTimeout(Duration.ofSeconds(20));

  @TempDir Path dir;
  private Path dataDir;
  private Path traceDir;
  private FakeSailService sail;
  private final List<SailLauncher> launchers = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    Assumptions.assumeTrue(
        ProcessGroups.unavailableReason().isEmpty(),
        () -> "sims need process groups: " + ProcessGroups.unavailableReason().orElse(""));
    dataDir = dir.resolve("data");
    traceDir = dataDir.resolve("s3/cascade/accelsim-traces/t1");
    Files.createDirectories(traceDir.resolve("traces"));
    Files.writeString(traceDir.resolve("traces/kernelslist.g"), "kernel-1.traceg\n");
    sail = new FakeSailService(dir.resolve("sail"), OWN, dataDir);
  }

  @AfterEach
  void stop() {
    launchers.forEach(SailLauncher::close);
    if (sail != null) {
      sail.close();
    }
  }

  @Test
  void launch_checkpointsTheAppAndStartsTheSimInAForkOfItsOwn() throws Exception {
    String ref =
        launcher(FAST)
            .launch(
                launch(
                    "s_1",
                    "r_1",
                    "cat \"$CASCADE_TRACE_DIR/traces/kernelslist.g\"; pwd; echo oops >&2"));

    assertThat(sail.checkpoints())
        .singleElement()
        .satisfies(
            checkpoint -> {
              assertThat(checkpoint.name()).isEqualTo("cascade-r_1");
              assertThat(checkpoint.sandboxId()).isEqualTo(OWN);
            });
    ForkRecord fork = sail.fork(ref).orElseThrow();
    assertThat(fork.name()).isEqualTo("cascade-s_1");
    assertThat(fork.checkpointId()).isEqualTo(sail.checkpoints().getFirst().id());
    assertThat(fork.restoreMemory()).isFalse();
    ExecRecord exec = sail.execs().getFirst();
    assertThat(exec.sandboxId()).isEqualTo(ref);
    assertThat(exec.idempotencyKey()).isEqualTo("s_1");
    assertThat(exec.environment())
        .containsEntry("CASCADE_SIM_ID", "s_1")
        .containsEntry(
            "CASCADE_TRACE_DIR", fork.disk().resolve("s3/cascade/accelsim-traces/t1").toString());
    Path output = fork.disk().resolve("work/sims/s_1.out");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(output)
                    .content()
                    .isEqualTo(
                        "kernel-1.traceg\n" + fork.disk().resolve("work/sims/s_1") + "\noops\n"));
    assertThat(dataDir.resolve("work/sims/s_1.out")).doesNotExist();
  }

  @Test
  void launch_eightLaunchesOfOneRunAtOnceTakeOneCheckpoint() throws Exception {
    CountDownLatch allStarted = new CountDownLatch(8);
    sail.afterCheckpoint(disk -> awaitQuietly(allStarted));
    SailLauncher launcher = launcher(FAST);
    List<Future<String>> refs = new ArrayList<>();
    try (ExecutorService launches = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 1; i <= 8; i++) {
        SimLaunch launch = launch("s_" + i, "r_1", "true");
        refs.add(
            launches.submit(
                () -> {
                  allStarted.countDown();
                  return launcher.launch(launch);
                }));
      }
    }

    List<String> sandboxes = new ArrayList<>();
    for (Future<String> ref : refs) {
      sandboxes.add(ref.get());
    }
    assertThat(sandboxes).doesNotHaveDuplicates().hasSize(8);
    assertThat(sail.checkpointCalls()).isEqualTo(1);
    assertThat(sail.forks())
        .hasSize(8)
        .allSatisfy(
            fork -> assertThat(fork.checkpointId()).isEqualTo(sail.checkpoints().getFirst().id()));
  }

  @Test
  void launch_afterARestartReusesTheCheckpointTheForkAndTheExec() throws Exception {
    SimLaunch first =
        launch("s_1", "r_1", "echo started >> \"$CASCADE_DATA_DIR/starts\"; sleep 60");
    SailLauncher before = launcher(FAST);
    String ref = before.launch(first);
    before.close();

    SailLauncher after = launcher(FAST); // a new process: nothing remembered
    String again = after.launch(first);
    String second = after.launch(launch("s_2", "r_1", "sleep 60"));

    assertThat(again).isEqualTo(ref);
    assertThat(second).isNotEqualTo(ref);
    assertThat(sail.checkpointCalls()).isEqualTo(1);
    assertThat(sail.forks()).hasSize(2);
    assertThat(sail.execs()).extracting(ExecRecord::idempotencyKey).containsExactly("s_1", "s_2");
    assertThat(sail.reattachedExecs()).isEqualTo(1);
    Path starts = sail.fork(ref).orElseThrow().disk().resolve("starts");
    await().atMost(WAIT).untilAsserted(() -> assertThat(starts).content().isEqualTo("started\n"));
  }

  @Test
  void launch_triesTransientFailuresAgain() throws Exception {
    sail.faults().failCheckpoints(2, true).failForks(2, true);

    String ref = launcher(FAST).launch(launch("s_1", "r_1", "true"));

    assertThat(sail.checkpointCalls()).isEqualTo(3);
    assertThat(sail.checkpoints()).hasSize(1);
    assertThat(sail.forks()).extracting(ForkRecord::sandboxId).containsExactly(ref);
    assertThat(sail.execs()).hasSize(1);
  }

  @Test
  void launch_failsWithTheReasonWhenTransientFailuresOutlastItsTries() {
    sail.faults().failForks(3, true);

    assertThatThrownBy(() -> launcher(FAST).launch(launch("s_1", "r_1", "true")))
        .isInstanceOfSatisfying(LaunchException.class, e -> assertThat(e.isTransient()).isFalse())
        .hasMessageStartingWith("cannot start sandbox cascade-s_1 from checkpoint ck_")
        .hasMessageContaining("(3 tries)")
        .hasMessageEndingWith("UNAVAILABLE (injected)");
    assertThat(sail.forks()).isEmpty();
    assertThat(sail.execs()).isEmpty();
  }

  @Test
  void launch_failsAtOnceWhenTheCheckpointFailsForGood() {
    sail.faults().failCheckpoints(1, false);

    assertThatThrownBy(() -> launcher(FAST).launch(launch("s_1", "r_1", "true")))
        .isInstanceOf(LaunchException.class)
        .hasMessage(
            "cannot checkpoint the app's sandbox sb_app as cascade-r_1: checkpoint of sb_app"
                + " failed: FAILED_PRECONDITION (injected)");
    assertThat(sail.checkpointCalls()).isEqualTo(1);
    assertThat(sail.forks()).isEmpty();
  }

  @Test
  void launch_givesUpOnAnExecThatHangsAndTerminatesTheFork() {
    sail.faults().hangExecs(Integer.MAX_VALUE);
    SailLauncher launcher = launcher(FAST.withAttempts(2).withCallTimeout(Duration.ofMillis(300)));

    assertThatThrownBy(() -> launcher.launch(launch("s_1", "r_1", "true")))
        .isInstanceOf(LaunchException.class)
        .hasMessageStartingWith("cannot start sim s_1 in sandbox sb_")
        .hasMessageEndingWith("(2 tries): Sail did not answer within 300 ms");

    assertThat(sail.hungCalls()).isEqualTo(2);
    assertThat(sail.execs()).isEmpty();
    assertThat(sail.terminated()).containsExactly(sail.forks().getFirst().sandboxId());
  }

  @Test
  void launch_reattachesToTheExecWhoseAnswerWasLost() throws Exception {
    sail.faults().loseExecReplies(1);
    SailLauncher launcher = launcher(FAST.withCallTimeout(Duration.ofMillis(500)));

    String ref = launcher.launch(launch("s_1", "r_1", "sleep 60"));

    assertThat(sail.execs()).singleElement().extracting(ExecRecord::sandboxId).isEqualTo(ref);
    assertThat(sail.reattachedExecs()).isEqualTo(1);
    assertThat(sail.isRunning(ref)).isTrue();
  }

  @Test
  void launch_startsAnotherForkWhenTheFirstVanishesBeforeTheSimStarts() throws Exception {
    sail.faults().vanishForks(1);

    String ref = launcher(FAST).launch(launch("s_1", "r_1", "true"));

    assertThat(sail.forks()).hasSize(2).last().extracting(ForkRecord::sandboxId).isEqualTo(ref);
    assertThat(sail.execs()).singleElement().extracting(ExecRecord::sandboxId).isEqualTo(ref);
  }

  @Test
  void launch_interruptedBeforeTheSimStartsTerminatesTheForkItWasMaking() throws Exception {
    sail.forkDelay(Duration.ofMillis(500));
    SailLauncher launcher = launcher(FAST);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread launching =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    launcher.launch(launch("s_1", "r_1", "true"));
                  } catch (Throwable e) {
                    thrown.set(e);
                  }
                });
    await().atMost(WAIT).until(() -> sail.forksInFlight() == 1);

    launching.interrupt();
    launching.join(WAIT);

    assertThat(thrown.get())
        .isInstanceOfSatisfying(LaunchException.class, e -> assertThat(e.isTransient()).isTrue())
        .hasMessage("interrupted while launching sim s_1 on Sail");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(sail.terminated()).containsExactly(sail.forks().getFirst().sandboxId()));
    assertThat(sail.execs()).isEmpty();
  }

  @Test
  void launch_checkpointsAgainWhenTheRunsCheckpointWasDeleted() throws Exception {
    SailLauncher launcher = launcher(FAST);
    launcher.launch(launch("s_1", "r_1", "true"));
    sail.deleteCheckpoint(sail.checkpoints().getFirst().id());

    String ref = launcher.launch(launch("s_2", "r_1", "true"));

    assertThat(sail.checkpointCalls()).isEqualTo(2);
    assertThat(sail.checkpoints())
        .singleElement()
        .satisfies(
            checkpoint -> {
              assertThat(checkpoint.name()).isEqualTo("cascade-r_1");
              assertThat(sail.fork(ref).orElseThrow().checkpointId()).isEqualTo(checkpoint.id());
            });
  }

  @Test
  void stop_terminatesTheForkAndEverythingInItAndIsHarmlessAgain() throws Exception {
    SailLauncher launcher = launcher(FAST);
    String ref = launcher.launch(launch("s_1", "r_1", "sleep 60 & sleep 60"));
    await().atMost(WAIT).until(() -> sail.isRunning(ref));

    launcher.stop(ref);

    assertThat(sail.isRunning(ref)).isFalse();
    assertThat(sail.terminated()).containsExactly(ref);
    launcher.stop(ref);
    launcher.stop("sb_never_was");
    assertThat(sail.terminated()).containsExactly(ref);
    assertThatThrownBy(() -> launcher.stop(OWN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the app's own sandbox");
  }

  private SailLauncher launcher(SailLauncherSettings settings) {
    SailLauncher launcher = new SailLauncher(sail, settings);
    launchers.add(launcher);
    return launcher;
  }

  private SimLaunch launch(String simId, String runId, String script) {
    Path sims = dataDir.resolve("work/sims");
    return new SimLaunch(
        TestContracts.of(simId, runId, dataDir, traceDir),
        List.of("sh", "-c", script),
        Map.of(),
        sims.resolve(simId),
        sims.resolve(simId + ".out"));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
