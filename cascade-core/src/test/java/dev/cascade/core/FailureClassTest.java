package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each failure class from the line Accel-Sim, GPGPU-Sim, the C++ runtime or Cascade prints, or the
 * exit status the sim agent reports (128 + the signal for a simulator killed by one).
 */
final class FailureClassTest {

  /** What the sim agent reports for a simulator that exited with {@code code}. */
  private static String agentError(int code, String signal) {
    return "the simulator exited with code " + code + " (killed by " + signal + ")";
  }

  @Test
  void simulatorError_forASimulatorTheLoaderCouldNotStart_withTheLoadersWords() {
    String error =
        "the simulator exited with code 127: accel-sim.out: symbol lookup error: accel-sim.out:"
            + " undefined symbol: _ZN6gpgpu_t4initEv";
    assertThat(FailureClass.classify(error, 127, List.of()))
        .isEqualTo(FailureClass.SIMULATOR_ERROR);
    assertThat(
            FailureClass.classify(
                "the simulator exited with code 127: accel-sim.out: error while loading shared"
                    + " libraries: libcudart.so.11.0: cannot open shared object file: No such file"
                    + " or directory",
                127,
                List.of()))
        .isEqualTo(FailureClass.SIMULATOR_ERROR);
  }

  @Test
  void deadlock_fromGpgpuSimsDeadlockLine() {
    String line =
        "GPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 0 @ gpu_sim_cycle 60811"
            + " (+ gpu_tot_sim_cycle 0) (4999 cycles ago)";
    assertThat(FailureClass.classify(line, 1, List.of())).isEqualTo(FailureClass.DEADLOCK);
  }

  @Test
  void unsupportedBinary_fromAccelSimsTraceParserLine_evenWithExitCode0() {
    assertThat(FailureClass.classify("unsupported binary version: 100", 0, List.of()))
        .isEqualTo(FailureClass.UNSUPPORTED_BINARY);
  }

  @Test
  void maxCycles_fromTheBreakLine() {
    assertThat(
            FailureClass.classify(
                "the simulator exited with code 1",
                1,
                List.of(
                    "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **")))
        .isEqualTo(FailureClass.MAX_CYCLES);
  }

  @Test
  void assert_fromGlibcsAssertionLine_notTheAbortItEndsWith() {
    List<String> tail =
        List.of(
            "accel-sim.out: ../src/gpgpu-sim/shader.cc:1920: void"
                + " ldst_unit::writeback(): Assertion `m_next_wb.empty()' failed.");
    assertThat(FailureClass.classify(agentError(134, "SIGABRT"), 134, tail))
        .isEqualTo(FailureClass.ASSERT);
  }

  @Test
  void outOfMemory_fromStdBadAlloc() {
    List<String> tail =
        List.of(
            "terminate called after throwing an instance of 'std::bad_alloc'",
            "  what():  std::bad_alloc");
    assertThat(FailureClass.classify(agentError(134, "SIGABRT"), 134, tail))
        .isEqualTo(FailureClass.OUT_OF_MEMORY);
  }

  @Test
  void segfault_fromExitStatus139_andFromTheShellsLine() {
    assertThat(FailureClass.classify(agentError(139, "SIGSEGV"), 139, List.of()))
        .isEqualTo(FailureClass.SEGFAULT);
    assertThat(FailureClass.classify(null, 139, List.of())).isEqualTo(FailureClass.SEGFAULT);
    assertThat(
            FailureClass.classify(
                "the simulator failed", null, List.of("Segmentation fault (core dumped)")))
        .isEqualTo(FailureClass.SEGFAULT);
  }

  @Test
  void killed_fromSigkillsExitStatus137() {
    assertThat(FailureClass.classify(agentError(137, "SIGKILL"), 137, List.of()))
        .isEqualTo(FailureClass.KILLED);
  }

  @Test
  void cascadesOwnReasons_comeFirst() {
    assertThat(FailureClass.classify("no heartbeat for 600s", null, List.of()))
        .isEqualTo(FailureClass.NO_HEARTBEAT);
    assertThat(
            FailureClass.classify(
                "launch failed: no simulator command: set CASCADE_SIM_CMD", null, List.of()))
        .isEqualTo(FailureClass.LAUNCH_FAILED);
    // A time limit's stop kills the simulator, whose log may end in anything.
    assertThat(
            FailureClass.classify(
                "timed out after 10m", 143, List.of("GPGPU-Sim uArch: ERROR ** deadlock detected")))
        .isEqualTo(FailureClass.TIMED_OUT);
  }

  @Test
  void simulatorError_forAnyOtherExit() {
    assertThat(FailureClass.classify("the simulator exited with code 1", 1, List.of()))
        .isEqualTo(FailureClass.SIMULATOR_ERROR);
  }

  @Test
  void wireNames_roundTrip_andAnUnknownOneIsNamed() {
    for (FailureClass failureClass : FailureClass.values()) {
      assertThat(FailureClass.fromWireName(failureClass.wireName())).isEqualTo(failureClass);
    }
    assertThatThrownBy(() -> FailureClass.fromWireName("oops"))
        .hasMessageContaining("\"oops\"")
        .hasMessageContaining("out_of_memory");
  }

  @Test
  void appsExitReason_isClassedByTheOutputItQuotes_orTheExitCode() {
    String segfault =
        "the simulator exited with code 139 before reporting its end; its output (/d/out.log) ends"
            + " with: launching kernel name: k uid: 1 | Segmentation fault (core dumped)";
    assertThat(FailureClass.classify(segfault, 139, List.of())).isEqualTo(FailureClass.SEGFAULT);
    String killed =
        "the simulator exited with code 137 before reporting its end and printed nothing";
    assertThat(FailureClass.classify(killed, 137, List.of())).isEqualTo(FailureClass.KILLED);
    String plain = "the simulator exited with code 1 before reporting its end and printed nothing";
    assertThat(FailureClass.classify(plain, 1, List.of())).isEqualTo(FailureClass.SIMULATOR_ERROR);
  }

  @Test
  void traceGone_beforeLaunchIsLaunchFailed_underARunningSimIsNotItsCrash() {
    String gone = "the trace \"demo\" is gone: its folder /d/traces/demo no longer exists";
    assertThat(FailureClass.classify("launch failed: " + gone, null, List.of()))
        .isEqualTo(FailureClass.LAUNCH_FAILED);
    assertThat(
            FailureClass.classify(
                gone + "; the simulator exited with code 139 before reporting its end",
                139,
                List.of("Segmentation fault")))
        .isEqualTo(FailureClass.SIMULATOR_ERROR);
  }

  @Test
  void launchersWords_areNotParsedForAClass_theLauncherStatusCarriesIt() {
    // Slurm's TIMEOUT reaches the sim as a LauncherStatus with failure TIMED_OUT; the words alone
    // say nothing the classifier reads, so a sim's own text cannot pass for them.
    assertThat(FailureClass.classify("Slurm state TIMEOUT (TimeLimit)", null, List.of()))
        .isEqualTo(FailureClass.SIMULATOR_ERROR);
    // A task that failed by itself: its error and log tell.
    assertThat(FailureClass.classify("Slurm state FAILED", 139, List.of()))
        .isEqualTo(FailureClass.SEGFAULT);
  }

  @Test
  void queuesTimeLimit_isTimedOut() {
    assertThat(
            FailureClass.classify(
                "timed out after 10m (its entry's time_limit)", 143, List.of("Killed")))
        .isEqualTo(FailureClass.TIMED_OUT);
  }
}
