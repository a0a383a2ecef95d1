package dev.cascade.slurm;

import dev.cascade.core.FailureClass;
import dev.cascade.core.spi.LauncherStatus;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
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

  /**
   * A task as accounting has it, from {@code sacct -P -o JobID,State,ExitCode,ReqMem,MaxRSS} lines
   * of the task and its steps ({@code 14_0}, {@code 14_0.batch}, ...).
   *
   * @param state the task's state; empty when only its steps were listed
   * @param exitCode the task's {@code code:signal}; empty likewise
   * @param askedBytes its {@code ReqMem} in bytes; -1 when not given
   * @param peakBytes the largest {@code MaxRSS} of its steps; -1 before any step has one
   * @param killedPeakBytes the largest {@code MaxRSS} of its steps ended by signal 9; -1 for none
   */
  record AccountedTask(
      String state, String exitCode, long askedBytes, long peakBytes, long killedPeakBytes) {

    boolean killedBySignal9() {
      return exitCode.endsWith(":9");
    }
  }

  /** The tasks of {@code sacct} lines, by task ref. */
  static Map<String, AccountedTask> accounted(String output) {
    Map<String, String[]> tasks = new HashMap<>();
    Map<String, Long> peaks = new HashMap<>();
    Map<String, Long> killedPeaks = new HashMap<>();
    for (String line : output.split("\n")) {
      String[] fields = line.strip().split("\\|", -1);
      if (fields.length < 5 || fields[0].isEmpty()) {
        continue;
      }
      int dot = fields[0].indexOf('.');
      if (dot < 0) {
        tasks.put(fields[0], fields);
        continue;
      }
      String ref = fields[0].substring(0, dot);
      long rss = size(fields[4].strip());
      if (rss > 0) {
        peaks.merge(ref, rss, Math::max);
        if (fields[2].strip().endsWith(":9")) {
          killedPeaks.merge(ref, rss, Math::max);
        }
      }
    }
    Set<String> refs = new HashSet<>(tasks.keySet());
    refs.addAll(peaks.keySet());
    Map<String, AccountedTask> accounted = new HashMap<>();
    for (String ref : refs) {
      String[] task = tasks.get(ref);
      accounted.put(
          ref,
          new AccountedTask(
              task == null ? "" : task[1].strip().split("\\s+")[0],
              task == null ? "" : task[2].strip(),
              // "100M", or "100Mn" / "100Mc" (per node / per CPU) from older Slurm: the smaller.
              task == null ? -1 : size(task[3].strip().replaceAll("[nc]$", "")),
              peaks.getOrDefault(ref, -1L),
              killedPeaks.getOrDefault(ref, -1L)));
    }
    return accounted;
  }

  /**
   * The tasks of {@code sacct} lines ({@link #accounted}) that Slurm killed for their memory: a
   * step ended by signal 9 whose {@code MaxRSS} is above the task's {@code ReqMem}. Clusters that
   * enforce {@code --mem} through Slurm's own sampling ({@code JobAcctGatherParams=OverMemoryKill},
   * no memory cgroup) record such a task as {@code FAILED}, not {@code OUT_OF_MEMORY}. By task ref:
   * the memory asked for and the peak seen, in bytes.
   */
  static Map<String, OverMemory> overMemory(String output) {
    Map<String, OverMemory> over = new HashMap<>();
    accounted(output)
        .forEach(
            (ref, task) -> {
              if (task.askedBytes() > 0 && task.killedPeakBytes() > task.askedBytes()) {
                over.put(ref, new OverMemory(task.askedBytes(), task.killedPeakBytes()));
              }
            });
    return over;
  }

  /**
   * Of the same lines, the tasks among {@code ended} whose end accounting cannot explain yet: it
   * has no record of the task, still has it queued or running, or has it ended by signal 9 with no
   * step's {@code MaxRSS}. Accounting gets a task's end and its steps' records a moment after
   * {@code squeue} shows the end.
   */
  static Set<String> notYetAccounted(String output, Collection<String> ended) {
    Map<String, AccountedTask> accounted = accounted(output);
    Set<String> waiting = new HashSet<>();
    for (String ref : ended) {
      AccountedTask task = accounted.get(ref);
      if (task == null
          || task.state().isEmpty()
          || QUEUED.contains(task.state())
          || RUNNING.contains(task.state())
          || (task.killedBySignal9() && task.peakBytes() <= 0)) {
        waiting.add(ref);
      }
    }
    return waiting;
  }

  /** A task Slurm killed over its memory: what it asked for and the peak Slurm saw, in bytes. */
  record OverMemory(long askedBytes, long peakBytes) {

    /** {@code "killed over its memory: peak 184.4 MiB of --mem 100 MiB"}. */
    String describe() {
      return String.format(
          Locale.ROOT,
          "killed over its memory: peak %.1f MiB of --mem %.0f MiB",
          peakBytes / 1048576.0,
          askedBytes / 1048576.0);
    }
  }

  /** {@code 123456K} in bytes; -1 when it is not a size. */
  private static long size(String text) {
    if (text.isEmpty()) {
      return -1;
    }
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
