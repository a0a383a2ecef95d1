package dev.cascade.core;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Why a failed sim failed, as a class beside its message: Accel-Sim's own categories where they
 * apply (its {@code job_status.py} tells deadlocks, assertion failures and crashes apart), and
 * Cascade's own ({@code no_heartbeat}, {@code launch_failed}, {@code timed_out}). {@link #classify}
 * reads it from the error, the exit status and the last lines of the sim's log; an end a launcher's
 * system imposed (Slurm's {@code TIMEOUT}) comes typed on its {@code LauncherStatus} instead, never
 * parsed back out of the words.
 */
public enum FailureClass {
  /** {@code GPGPU-Sim uArch: ERROR ** deadlock detected: ...} */
  DEADLOCK,
  /** {@code unsupported binary version: N}: the trace's SASS is newer than the simulator. */
  UNSUPPORTED_BINARY,
  /** {@code GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **} */
  MAX_CYCLES,
  /** {@code accel-sim.out: ...: Assertion `...' failed.} */
  ASSERT,
  /** {@code Segmentation fault}, exit code 139 or signal 11. */
  SEGFAULT,
  /** {@code std::bad_alloc}, {@code Cannot allocate memory}, or the kernel's OOM killer. */
  OUT_OF_MEMORY,
  /**
   * Stopped for going over its wall-time limit ({@code timed out after ...}, or {@code Slurm state
   * TIMEOUT} or {@code DEADLINE}).
   */
  TIMED_OUT,
  /**
   * Killed from outside: SIGKILL (exit code 137) or SIGTERM (143) it did not ask for, or an end
   * Slurm imposed ({@code NODE_FAIL}, {@code PREEMPTED}, {@code CANCELLED} by someone else).
   */
  KILLED,
  /** Silent for too long ({@code no heartbeat for 600s}). */
  NO_HEARTBEAT,
  /**
   * The launcher could not start it ({@code launch failed: ...}, {@code Slurm state BOOT_FAIL}).
   */
  LAUNCH_FAILED,
  /**
   * Anything else the simulator reported or exited with, and a sim whose trace folder went away
   * under it ({@code the trace "..." is gone}): its crash then says nothing about the simulator.
   */
  SIMULATOR_ERROR;

  /** The lower-case name used in JSON and the database ({@code "out_of_memory"}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Reads a wire name; the message names the value and the accepted ones. */
  public static FailureClass fromWireName(String value) {
    for (FailureClass failureClass : values()) {
      if (failureClass.wireName().equals(value)) {
        return failureClass;
      }
    }
    throw new IllegalArgumentException(
        "unknown failure class \""
            + value
            + "\"; expected one of "
            + String.join(
                ", ", java.util.Arrays.stream(values()).map(FailureClass::wireName).toList()));
  }

  /**
   * The class of a failure from its {@code error}, the simulator's {@code exitCode} (null when
   * none; 128 + n for a process ended by signal n) and the last {@code logLines} of its log. What
   * Cascade itself decided (no heartbeat, a failed launch, a time limit) comes first; then what the
   * simulator printed, since a crash's exit status says less than its last words (an assertion and
   * a {@code bad_alloc} both end in SIGABRT); then the exit status.
   */
  public static FailureClass classify(String error, Integer exitCode, List<String> logLines) {
    Objects.requireNonNull(logLines, "logLines");
    String message = error == null ? "" : error;
    if (message.startsWith("launch failed")) {
      return LAUNCH_FAILED;
    }
    if (message.startsWith("no heartbeat for")) {
      return NO_HEARTBEAT;
    }
    if (message.startsWith("timed out after")) {
      return TIMED_OUT;
    }
    if (message.startsWith("the trace ") && message.contains(" is gone")) {
      return SIMULATOR_ERROR;
    }
    String text = message + "\n" + String.join("\n", logLines);
    if (text.contains("deadlock detected")) {
      return DEADLOCK;
    }
    if (text.contains("unsupported binary version")) {
      return UNSUPPORTED_BINARY;
    }
    if (text.contains("reaching the maximum cycles") || text.contains("gpgpu_max_cycle")) {
      return MAX_CYCLES;
    }
    if (text.contains("std::bad_alloc")
        || text.contains("Cannot allocate memory")
        || text.contains("Out of memory")
        || text.contains("out of memory")) {
      return OUT_OF_MEMORY;
    }
    if (text.contains("Assertion") && text.contains("failed")) {
      return ASSERT;
    }
    if (text.contains("Segmentation fault") || text.contains("SIGSEGV")) {
      return SEGFAULT;
    }
    if (exitCode != null) {
      switch (exitCode) {
        case 139, -11 -> {
          return SEGFAULT;
        }
        case 137, 143, -9, -15 -> {
          return KILLED;
        }
        default -> {}
      }
    }
    if (text.contains("SIGKILL") || text.contains("Killed")) {
      return KILLED;
    }
    return SIMULATOR_ERROR;
  }
}
