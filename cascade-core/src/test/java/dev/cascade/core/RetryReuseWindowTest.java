package dev.cascade.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestEngines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Provenance, reuse, retry, kernel windows and failure classes through the engine, playing each
 * sim's side with its heartbeats and output chunks.
 */
final class RetryReuseWindowTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  /** A three-kernel list with memcpys before the first and the third kernel, and one after. */
  private static final String LIST_WITH_MEMCPYS =
      "MemcpyHtoD,0x00007f0000000000,4096\n"
          + "kernel-1.traceg\n"
          + "kernel-2.traceg\n"
          + "MemcpyHtoD,0x00007f0000100000,8192\n"
          + "MemcpyHtoD,0x00007f0000200000,8192\n"
          + "kernel-3.traceg\n"
          + "MemcpyHtoD,0x00007f0000300000,16\n";

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private RecordingLauncher launcher;
  private Engine engine;

  @BeforeEach
  void startWithAReadyTrace() throws IOException {
    Path trace = TestTraces.writeReady(dataDir, "demo", 3);
    Files.writeString(trace.resolve("traces/kernelslist.g"), LIST_WITH_MEMCPYS);
    launcher = new RecordingLauncher();
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, launcher).clock(clock).settings(), "demo", WAIT);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  /** A log as Accel-Sim prints it: its build strings, two kernels and the exit line. */
  private static String log(long firstCycles, long secondCycles) {
    return "Accel-Sim [build accelsim-commit-73f9fac]\n"
        + "*** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-667834cf] ***\n"
        + block("kernel_1", 1, firstCycles, firstCycles, 1000)
        + block("kernel_2", 2, secondCycles, firstCycles + secondCycles, 3000)
        + "GPGPU-Sim: *** exit detected ***\n";
  }

  private static String block(String name, int uid, long cycles, long totalCycles, long insn) {
    return "launching kernel name: "
        + name
        + " uid: "
        + uid
        + "\nkernel_name = "
        + name
        + " \nkernel_launch_uid = "
        + uid
        + " \ngpu_sim_cycle = "
        + cycles
        + "\ngpu_tot_sim_cycle = "
        + totalCycles
        + "\ngpu_tot_sim_insn = "
        + insn
        + "\ngpgpu_silicon_slowdown = 1000x\n";
  }

  private void succeed(String simId, String log) {
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.reports().putChunk(simId, 0, log.getBytes(UTF_8));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 1));
  }

  private void fail(String simId, String log, int exitCode, String error) {
    engine.reports().heartbeat(simId, Heartbeat.running(0));
    engine.reports().putChunk(simId, 0, log.getBytes(UTF_8));
    engine.reports().heartbeat(simId, new Heartbeat(SimState.FAILED, error, exitCode, 1));
  }

  private void awaitLaunches(int count) {
    await().atMost(WAIT).until(() -> launcher.launches.size() >= count);
  }

  private static byte[] bytes(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }

  @Test
  void provenance_recordsTheInputsHashesTheSimulatorAndTheLogsBuilds() throws IOException {
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)));
    awaitLaunches(2);
    String simId = run.sims().get(0).id();
    succeed(simId, log(100, 200));

    Provenance provenance = engine.runs().sim(simId).provenance();
    assertThat(provenance.traceHash()).startsWith("sha256:").hasSize(7 + 64);
    assertThat(provenance.configHash()).startsWith("sha256:");
    assertThat(provenance.simulator()).isEqualTo("cascade-emulator-2.0");
    assertThat(provenance.accelSimBuild()).isEqualTo("accelsim-commit-73f9fac");
    assertThat(provenance.gpgpuSimBuild()).isEqualTo("gpgpu-sim_git-commit-667834cf");
    // The versions the build lines name: GPGPU-Sim's; Accel-Sim's line names none.
    assertThat(provenance.gpgpuSimVersion()).isEqualTo("4.2.0");
    assertThat(provenance.accelSimVersion()).isNull();
    assertThat(provenance.reusedFrom()).isNull();
    assertThat(run.sims().get(1).provenance().traceHash()).isEqualTo(provenance.traceHash());

    // Another config hashes differently; a changed trace does too.
    Run other = engine.runs().create("demo", List.of(new RunEntry("SM90_H200", 1)));
    assertThat(other.sims().get(0).provenance().configHash()).isNotEqualTo(provenance.configHash());
    Path kernel = TestTraces.folder(dataDir, "demo").resolve("traces/kernel-2.traceg");
    Files.writeString(kernel, Files.readString(kernel) + "\n");
    Run changed = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    assertThat(changed.sims().get(0).provenance().traceHash()).isNotEqualTo(provenance.traceHash());
  }

  @Test
  void reuse_launchesNothingForARepeatedRun_andGivesEqualResults() throws IOException {
    Run first = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)));
    awaitLaunches(2);
    succeed(first.sims().get(0).id(), log(100, 200));
    succeed(first.sims().get(1).id(), log(110, 190));
    assertThat(engine.runs().get(first.id()).state()).isEqualTo(RunState.SUCCEEDED);
    int launchesBefore = launcher.attempts.size();

    Run again = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)), true);

    assertThat(again.state()).isEqualTo(RunState.SUCCEEDED);
    for (int replica = 0; replica < 2; replica++) {
      Sim earlier = first.sims().get(replica);
      Sim reused = again.sims().get(replica);
      assertThat(reused.replica()).isEqualTo(replica);
      assertThat(reused.provenance().reusedFrom()).isEqualTo(earlier.id());
      assertThat(reused.provenance().gpgpuSimVersion()).isEqualTo("4.2.0");
      assertThat(reused.launcherRef()).isNull();
      assertThat(engine.runs().kernels(reused.id()))
          .isEqualTo(engine.runs().kernels(earlier.id()))
          .hasSize(2);
      assertThat(bytes(engine.runs().log(reused.id())))
          .isEqualTo(bytes(engine.runs().log(earlier.id())));
      // Nothing secret is copied: the earlier sim's token does not speak for the reusing one.
      String earlierToken =
          launcher.launches.stream()
              .filter(launch -> launch.simId().equals(earlier.id()))
              .findFirst()
              .orElseThrow()
              .contract()
              .simToken();
      assertThat(engine.reports().isSimToken(earlier.id(), earlierToken)).isTrue();
      assertThat(engine.reports().isSimToken(reused.id(), earlierToken)).isFalse();
    }
    assertThat(engine.results().compare(again.id()))
        .isEqualTo(engine.results().compare(first.id()));
    // Launches are asynchronous: give a wrongly submitted sim the time to show.
    await()
        .during(Duration.ofMillis(500))
        .atMost(WAIT)
        .until(() -> launcher.attempts.size() == launchesBefore);

    // A replica with no earlier result, or a run without reuse, simulates.
    Run more = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 3)), true);
    assertThat(more.sims().get(2).provenance().reusedFrom()).isNull();
    Run fresh = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    await().atMost(WAIT).until(() -> launcher.attempts.size() == launchesBefore + 2);
    assertThat(launcher.attempts)
        .contains(more.sims().get(2).id(), fresh.sims().get(0).id())
        .doesNotContain(more.sims().get(0).id(), more.sims().get(1).id());
  }

  @Test
  void retry_relaunchesExactlyTheFailedSims_andTheRunEndsSucceeded() {
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 3)));
    awaitLaunches(3);
    Sim first = run.sims().get(0);
    Sim second = run.sims().get(1);
    Sim third = run.sims().get(2);
    fail(first.id(), "Segmentation fault (core dumped)\n", 139, null);
    succeed(second.id(), log(100, 200));
    fail(
        third.id(),
        "accel-sim.out: ../src/gpgpu-sim/shader.cc:1920: void ldst_unit::writeback():"
            + " Assertion `m_next_wb.empty()' failed.\n",
        134,
        "the simulator exited with code 134 (killed by SIGABRT)");
    assertThat(engine.runs().get(run.id()).state()).isEqualTo(RunState.PARTIAL);
    assertThat(engine.runs().sim(first.id()).failureClass()).isEqualTo(FailureClass.SEGFAULT);
    assertThat(engine.runs().sim(third.id()).failureClass()).isEqualTo(FailureClass.ASSERT);

    Run retried = engine.runs().retry(run.id());

    assertThat(retried.state()).isEqualTo(RunState.ACTIVE);
    List<Sim> attempts = retried.sims().stream().filter(sim -> sim.attempt() == 2).toList();
    assertThat(attempts).extracting(Sim::replica).containsExactlyInAnyOrder(0, 2);
    awaitLaunches(5);
    assertThat(launcher.launches.subList(3, 5))
        .extracting(SimLaunch::simId)
        .containsExactlyInAnyOrderElementsOf(attempts.stream().map(Sim::id).toList());
    attempts.forEach(sim -> succeed(sim.id(), log(100, 200)));

    Run done = engine.runs().get(run.id());
    assertThat(done.state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(done.sims()).hasSize(5);
    assertThat(done.latestAttempts()).hasSize(3).allMatch(s -> s.state() == SimState.SUCCEEDED);
    // The earlier attempts keep their error, class and log.
    assertThat(engine.runs().sim(first.id()).state()).isEqualTo(SimState.FAILED);
    assertThat(engine.runs().sim(first.id()).exitCode()).isEqualTo(139);
    assertThat(engine.runs().logTail(third.id(), 5)).anyMatch(l -> l.contains("Assertion"));
    assertThat(engine.results().compare(run.id()).get(0).succeeded()).isEqualTo(3);

    assertThatThrownBy(() -> engine.runs().retry(run.id()))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT))
        .hasMessageContaining("no failed or cancelled sim");
  }

  @Test
  void retry_twiceAtOnce_addsOneAttempt() throws Exception {
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    awaitLaunches(1);
    fail(run.sims().get(0).id(), "", 1, "the simulator exited with code 1");

    List<java.util.concurrent.CompletableFuture<Boolean>> retries =
        java.util.stream.IntStream.range(0, 2)
            .mapToObj(
                i ->
                    java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> {
                          try {
                            engine.runs().retry(run.id());
                            return true;
                          } catch (CascadeException e) {
                            assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
                            return false;
                          }
                        }))
            .toList();

    assertThat(retries.stream().map(java.util.concurrent.CompletableFuture::join))
        .containsExactlyInAnyOrder(true, false);
    assertThat(engine.runs().get(run.id()).sims()).extracting(Sim::attempt).containsExactly(1, 2);
  }

  @Test
  void rerun_makesANewRunWithTheSameEntries() {
    Run run =
        engine
            .runs()
            .create(
                "demo", List.of(new RunEntry("SM90_H100", 2, "2-3"), new RunEntry("SM90_H200", 1)));

    Run rerun = engine.runs().rerun(run.id());

    assertThat(rerun.id()).isNotEqualTo(run.id());
    assertThat(rerun.entries()).isEqualTo(run.entries());
    assertThat(rerun.sims()).hasSize(3).allMatch(sim -> sim.attempt() == 1);
  }

  @Test
  void kernelWindow_givesTheSimAListOfTheWindowsKernelsWithTheirMemcpys() throws IOException {
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1, "2-3")));
    Sim sim = run.sims().get(0);
    assertThat(sim.kernels()).isEqualTo("2-3");
    assertThat(sim.progress().kernelsTotal()).isEqualTo(2);
    awaitLaunches(1);

    Path traceDir = Path.of(launcher.launches.get(0).environment().get("CASCADE_TRACE_DIR"));
    assertThat(traceDir).isNotEqualTo(TestTraces.folder(dataDir, "demo"));
    assertThat(Files.readAllLines(traceDir.resolve("traces/kernelslist.g")))
        .containsExactly(
            "kernel-2.traceg",
            "MemcpyHtoD,0x00007f0000100000,8192",
            "MemcpyHtoD,0x00007f0000200000,8192",
            "kernel-3.traceg");
    assertThat(Files.readString(traceDir.resolve("traces/kernel-3.traceg")))
        .startsWith("-kernel name = kernel_3");
  }

  @Test
  void kernelWindow_beyondTheTrace_isRefusedNamingTheFieldAndTheKernelCount() {
    assertThatThrownBy(
            () ->
                engine
                    .runs()
                    .create(
                        "demo",
                        List.of(new RunEntry("SM90_H100", 1), new RunEntry("SM90_H200", 1, "3-4"))))
        .isInstanceOfSatisfying(
            CascadeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
              assertThat(e.field()).isEqualTo("entries[1].kernels");
            })
        .hasMessageContaining("\"3-4\"")
        .hasMessageContaining("has 3 kernels");
    assertThat(engine.runs().list()).isEmpty();
  }

  @Test
  void failedLaunch_isClassedLaunchFailed() {
    launcher.failWith = "no sandbox quota left";
    Run run = engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1)));
    String simId = run.sims().get(0).id();
    await().atMost(WAIT).until(() -> engine.runs().sim(simId).state() == SimState.FAILED);
    assertThat(engine.runs().sim(simId).failureClass()).isEqualTo(FailureClass.LAUNCH_FAILED);
  }
}
