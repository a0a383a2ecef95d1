package dev.cascade.slurm;

import dev.cascade.core.FailureClass;
import dev.cascade.core.spi.LauncherStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Slurm's job states as Cascade sees them (docs/slurm.md has the table): waiting states are queued,
 * started ones running, the rest ended; and the readers of {@code squeue} and {@code sacct} lines.
 */
final class SlurmStates {

  /** States in which a task has not started: the sim cannot heartbeat yet. */
  static final Set<String> QUEUED =
      Set.of("PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD");

  /** States in which a task has started and has not ended. */
  static final Set<String> RUNNING =
      Set.of("RUNNING", "COMPLETING", "SUSPENDED", "STOPPED", "SIGNALING", "STAGE_OUT", "RESIZING");

  /** Ends that Slurm imposed on a task, which the sim may have seen only as a SIGTERM. */
  static final Set<String> KILLED =
      Set.of("TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED", "DEADLINE", "BOOT_FAIL");

  private SlurmStates() {}

  /** The status for a Slurm state and reason ({@code PENDING}, {@code Priority}). */
  static LauncherStatus of(String state, String reason) {
    // sacct writes "CANCELLED by 0": the first word is the state.
    String name = state.strip().split("\\s+")[0];
    String detail = describe(state.strip(), reason);
    if (QUEUED.contains(name)) {
      return LauncherStatus.queued(detail);
    }
    if (RUNNING.contains(name)) {
      return LauncherStatus.running(detail);
    }
    if (KILLED.contains(name)) {
      return LauncherStatus.killed(detail, failure(name));
    }
    return LauncherStatus.ended(detail, failure(name));
  }

  /**
   * Why Slurm ended a task, as the sim's failure class; null for an end of the task's own ({@code
   * FAILED}, {@code COMPLETED}), which the sim's own report and log tell.
   */
  static FailureClass failure(String state) {
    return switch (state) {
      case "TIMEOUT", "DEADLINE" -> FailureClass.TIMED_OUT;
      case "OUT_OF_MEMORY" -> FailureClass.OUT_OF_MEMORY;
      case "NODE_FAIL", "PREEMPTED", "CANCELLED" -> FailureClass.KILLED;
      case "BOOT_FAIL" -> FailureClass.LAUNCH_FAILED;
      default -> null;
    };
  }

  private static String describe(String state, String reason) {
    String why = reason == null ? "" : reason.strip();
    return why.isEmpty() || why.equals("None")
        ? "Slurm state " + state
        : "Slurm state " + state + " (" + why + ")";
  }

  /**
   * Reads lines of {@code job step|MaxRSS}, as {@code sacct -P -o JobID,MaxRSS} prints them, into
   * the largest resident memory of any step of each task, in bytes, by task ref ({@code 14_0} for
   * the steps {@code 14_0.batch}, {@code 14_0.extern}, {@code 14_0.0}). Sizes are read with their
   * unit ({@code 123456K}, {@code 1.50G}; powers of 1024; none means bytes); a task whose steps
   * show none is left out.
   */
  static Map<String, Long> maxRss(String output) {
    Map<String, Long> peaks = new HashMap<>();
    for (String line : output.split("\n")) {
      String[] fields = line.strip().split("\\|", -1);
      if (fields.length < 2 || !fields[0].contains(".") || fields[1].isBlank()) {
        continue;
      }
      String ref = fields[0].substring(0, fields[0].indexOf('.'));
      long bytes = size(fields[1].strip());
      if (bytes > 0) {
        peaks.merge(ref, bytes, Math::max);
      }
    }
    return peaks;
  }

  /** {@code 123456K} in bytes; -1 when it is not a size. */
  private static long size(String text) {
    long unit = 1;
    String number = text;
    char last = text.charAt(text.length() - 1);
    int power = "KMGTP".indexOf(Character.toUpperCase(last));
    if (power >= 0) {
      unit = 1L << (10 * (power + 1));
      number = text.substring(0, text.length() - 1);
    }
    try {
      return (long) (Double.parseDouble(number) * unit);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Reads lines of {@code ref|state|reason}, as {@code squeue -o '%i|%T|%r'} and {@code sacct -P -o
   * JobID,State,Reason} print them, into statuses by ref.
   */
  static Map<String, LauncherStatus> parse(String output) {
    Map<String, LauncherStatus> statuses = new HashMap<>();
    for (String line : output.split("\n")) {
      String[] fields = line.strip().split("\\|", -1);
      if (fields.length < 2 || fields[0].isEmpty() || fields[1].isEmpty()) {
        continue;
      }
      statuses.put(fields[0], of(fields[1], fields.length > 2 ? fields[2] : ""));
    }
    return statuses;
  }
}
