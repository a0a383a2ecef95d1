package dev.cascade.slurm;

import dev.cascade.core.FailureClass;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.LauncherStatus;
import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs sims as the tasks of Slurm job arrays: each run entry's replicas are one {@code sbatch
 * --array=0-(N-1)} submission, and each sim's launcher ref is its task, {@code <job id>_<task>}.
 * Every task runs the same {@code job.sh}, which reads its own sim's contract from a file only the
 * user can read ({@link SlurmJobFiles}). {@link #status} reads {@code squeue}, and {@code sacct}
 * when accounting is on, for the tasks Slurm holds in its queue and the ones that ended; {@link
 * #stop} is {@code scancel}. Tasks are submitted with {@code --no-requeue}: a task Slurm would
 * requeue ends instead, and its sim fails with Slurm's state rather than start a second time over
 * the same log.
 *
 * <p>Found by {@link java.util.ServiceLoader} under the name {@code slurm} ({@code cascade serve
 * --sims slurm}), set up from the {@code CASCADE_SLURM_*} variables ({@link
 * SlurmLauncherSettings#fromEnvironment}).
 */
public final class SlurmLauncher implements Launcher {

  public static final String NAME = "slurm";

  private static final Logger log = LoggerFactory.getLogger(SlurmLauncher.class);
  private static final Pattern REF = Pattern.compile("(\\d+)_(\\d+)");
  private static final long AVAILABILITY_CACHE_NANOS = 10_000_000_000L;

  private final SlurmLauncherSettings settings;
  private final SlurmCommands commands;
  private volatile Optional<String> unavailable;
  private volatile long unavailableCheckedAt;
  private volatile Boolean accounting;

  /**
   * How long a task killed by a signal is still shown running while accounting has no record of its
   * steps' memory: long enough for the step's record, short of the heartbeat timeout.
   */
  private static final Duration ACCOUNTING_WAIT = Duration.ofSeconds(30);

  /** Tasks killed by a signal whose steps' memory accounting did not have yet: since when. */
  private final Map<String, Long> awaitingAccounting = new ConcurrentHashMap<>();

  /** The launcher {@code ServiceLoader} finds, set up from the environment. */
  public SlurmLauncher() {
    this(SlurmLauncherSettings.fromEnvironment(System.getenv()));
  }

  public SlurmLauncher(SlurmLauncherSettings settings) {
    this(settings, new SlurmCommands(settings.slurmConf(), settings.commandTimeout()));
  }

  /** With {@code commands} in place of Slurm's own (tests play an unreachable controller). */
  SlurmLauncher(SlurmLauncherSettings settings, SlurmCommands commands) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.commands = Objects.requireNonNull(commands, "commands");
  }

  @Override
  public String name() {
    return NAME;
  }

  public SlurmLauncherSettings settings() {
    return settings;
  }

  /**
   * Why sims cannot go to Slurm from here: no {@code sbatch}, or a controller that does not answer.
   */
  @Override
  public Optional<String> unavailableReason() {
    Optional<String> known = unavailable;
    if (known != null && System.nanoTime() - unavailableCheckedAt < AVAILABILITY_CACHE_NANOS) {
      return known;
    }
    Optional<String> reason = checkAvailable();
    unavailable = reason;
    unavailableCheckedAt = System.nanoTime();
    return reason;
  }

  private Optional<String> checkAvailable() {
    try {
      commands.run(List.of("sbatch", "--version"));
    } catch (SlurmException e) {
      return Optional.of(
          "sbatch is not on the PATH (" + e.getMessage() + "); install Slurm's client commands");
    }
    try {
      String ping = commands.run(List.of("scontrol", "ping"));
      if (!ping.contains("UP")) {
        return Optional.of("the Slurm controller does not answer: " + ping.strip());
      }
    } catch (SlurmException e) {
      return Optional.of("the Slurm controller does not answer: " + e.getMessage());
    }
    return Optional.empty();
  }

  @Override
  public boolean launchesInBatches() {
    return true;
  }

  @Override
  public String launch(SimLaunch launch) throws LaunchException {
    LaunchResult result = launchAll(List.of(launch)).getFirst();
    if (!result.isLaunched()) {
      throw result.failure();
    }
    return result.ref();
  }

  /** Submits the sims as one job array: task {@code n} is sim {@code n}. */
  @Override
  public List<LaunchResult> launchAll(List<SimLaunch> launches) {
    if (launches.isEmpty()) {
      return List.of();
    }
    try {
      String jobId = submit(launches);
      List<LaunchResult> results = new ArrayList<>();
      for (int task = 0; task < launches.size(); task++) {
        results.add(LaunchResult.launched(jobId + "_" + task));
      }
      log.info(
          "run {}: {} sims submitted to Slurm as job array {}",
          launches.getFirst().runId(),
          launches.size(),
          jobId);
      return results;
    } catch (LaunchException e) {
      return launches.stream().map(launch -> LaunchResult.failed(e)).toList();
    }
  }

  private String submit(List<SimLaunch> launches) throws LaunchException {
    Optional<String> reason = unavailableReason();
    if (reason.isPresent()) {
      throw new LaunchException("the slurm launcher cannot run here: " + reason.get());
    }
    SimLaunch first = launches.getFirst();
    Path runFolder =
        first.contract().dataDir().resolve("work").resolve("slurm").resolve(first.runId());
    Path folder = runFolder.resolve(first.simId());
    Path script;
    try {
      boolean fetch = settings.traces() == SlurmLauncherSettings.TraceAccess.FETCH;
      script =
          SlurmJobFiles.write(
              folder,
              launches.stream().map(launch -> SlurmTask.of(launch, settings)).toList(),
              first.command(),
              fetch);
    } catch (IOException e) {
      throw new LaunchException("cannot write the job's files in " + folder + ": " + e, false, e);
    }
    // With fetch, the nodes see none of this disk: Slurm's own output goes to their /tmp.
    Path output =
        settings.jobOutputDir() != null
            ? settings.jobOutputDir()
            : settings.traces() == SlurmLauncherSettings.TraceAccess.FETCH
                ? Path.of("/tmp")
                : runFolder;
    try {
      java.nio.file.Files.createDirectories(output);
    } catch (IOException e) {
      throw new LaunchException("cannot make the job output dir " + output + ": " + e, false, e);
    }
    List<String> command =
        sbatchCommand(
            first,
            launches.size(),
            launches.stream().mapToLong(SimLaunch::memoryBytes).max().orElse(0),
            folder,
            output,
            script);
    try {
      // --parsable prints "<job id>" or "<job id>;<cluster>".
      String printed = commands.run(command).strip();
      String jobId = printed.split(";")[0].strip();
      if (!jobId.matches("\\d+")) {
        throw new LaunchException("sbatch printed no job id: \"" + printed + "\"");
      }
      return jobId;
    } catch (SlurmException e) {
      // Not transient: trying again could submit the array twice.
      throw new LaunchException(e.getMessage(), false, e);
    }
  }

  /** The {@code sbatch} call for one array of {@code tasks} sims of {@code first}'s entry. */
  List<String> sbatchCommand(SimLaunch first, int tasks, Path folder, Path output, Path script) {
    return sbatchCommand(first, tasks, 0, folder, output, script);
  }

  /**
   * The {@code sbatch} call for one array of {@code tasks} sims of {@code first}'s entry, predicted
   * to need {@code memoryBytes} each at their peak: {@code --mem} asks for that (in MiB, rounded
   * up) unless the user set a memory of their own ({@code CASCADE_SLURM_MEM}, or {@code --mem...}
   * among the extra arguments), or nothing is predicted (0).
   */
  List<String> sbatchCommand(
      SimLaunch first, int tasks, long memoryBytes, Path folder, Path output, Path script) {
    List<String> command = new ArrayList<>();
    command.add("sbatch");
    command.add("--parsable");
    command.add("--job-name=cascade-" + first.runId() + "-" + first.contract().gpuConfig());
    command.add("--array=0-" + (tasks - 1));
    command.add(
        "--chdir="
            + (settings.traces() == SlurmLauncherSettings.TraceAccess.FETCH
                ? Path.of("/tmp")
                : folder));
    command.add("--output=" + output.resolve("cascade-%A_%a.out"));
    command.add("--no-requeue");
    command.add("--cpus-per-task=" + settings.cpusPerSim());
    option(command, "--partition=", settings.partition());
    option(command, "--account=", settings.account());
    option(command, "--qos=", settings.qos());
    option(command, "--time=", settings.timeLimit());
    option(command, "--mem=", settings.memoryPerSim());
    boolean userMemory =
        !settings.memoryPerSim().isEmpty()
            || settings.extraArguments().stream()
                .anyMatch(argument -> argument.startsWith("--mem"));
    if (!userMemory && memoryBytes > 0) {
      long mib = (memoryBytes + (1 << 20) - 1) >> 20;
      command.add("--mem=" + mib + "M");
    }
    command.addAll(settings.extraArguments());
    command.add(script.toString());
    return command;
  }

  private static void option(List<String> command, String option, String value) {
    if (!value.isEmpty()) {
      command.add(option + value);
    }
  }

  /**
   * The tasks' states from {@code squeue}; tasks it no longer shows are looked up with {@code
   * sacct} when accounting is on. A ref Slurm does not know is left out; while the controller does
   * not answer every ref is {@link LauncherStatus#unknown}, so nothing is decided on a failed poll
   * and a task that may still be pending stays queued.
   */
  @Override
  public Map<String, LauncherStatus> status(Collection<String> launcherRefs) {
    Set<String> jobs = new LinkedHashSet<>();
    for (String ref : launcherRefs) {
      var match = REF.matcher(ref);
      if (match.matches()) {
        jobs.add(match.group(1));
      }
    }
    if (jobs.isEmpty()) {
      return Map.of();
    }
    Map<String, LauncherStatus> found = new HashMap<>();
    try {
      found.putAll(
          SlurmStates.parse(
              commands.run(
                  List.of(
                      "squeue",
                      "--noheader",
                      "--array",
                      "--states=all",
                      "--format=%i|%T|%r",
                      "--jobs=" + String.join(",", jobs)))));
    } catch (SlurmException e) {
      // squeue refuses a list whose every job is gone; sacct may still know them.
      if (!e.getMessage().contains("Invalid job id")) {
        log.warn("cannot read the Slurm queue: {}", e.getMessage());
        LauncherStatus unknown =
            LauncherStatus.unknown(
                "Slurm cannot be asked (the controller does not answer): " + e.getMessage());
        Map<String, LauncherStatus> all = new HashMap<>();
        for (String ref : launcherRefs) {
          all.put(ref, unknown);
        }
        return all;
      }
    }
    // An array whose tasks never started is one record ("14", "14_[0-3]"): it speaks for them all.
    for (String ref : launcherRefs) {
      var match = REF.matcher(ref);
      if (!found.containsKey(ref) && match.matches()) {
        String job = match.group(1);
        found.entrySet().stream()
            .filter(e -> e.getKey().equals(job) || e.getKey().startsWith(job + "_["))
            .findFirst()
            .ifPresent(e -> found.put(ref, e.getValue()));
      }
    }
    List<String> missing = launcherRefs.stream().filter(ref -> !found.containsKey(ref)).toList();
    if (!missing.isEmpty() && accountingOn()) {
      try {
        found.putAll(
            SlurmStates.parse(
                commands.run(
                    List.of(
                        "sacct",
                        "--noheader",
                        "--parsable2",
                        "--allocations",
                        "--format=JobID,State,Reason",
                        "--jobs=" + String.join(",", jobs)))));
      } catch (SlurmException e) {
        log.warn("cannot read Slurm's accounting: {}", e.getMessage());
      }
    }
    found.keySet().retainAll(Set.copyOf(launcherRefs));
    classifyMemoryKills(found, jobs);
    return found;
  }

  /**
   * Tasks that ended without a Slurm reason of their own ({@code FAILED}, {@code CANCELLED}) are
   * looked up in accounting: one killed over its {@code --mem} by Slurm's sampling is marked {@code
   * out_of_memory}, so it is retried with more memory like an {@code OUT_OF_MEMORY} task.
   */
  private void classifyMemoryKills(Map<String, LauncherStatus> found, Set<String> jobs) {
    List<String> unexplained =
        found.entrySet().stream()
            .filter(entry -> unexplainedEnd(entry.getValue()))
            .map(Map.Entry::getKey)
            .toList();
    if (unexplained.isEmpty() || !accountingOn()) {
      return;
    }
    String accounted;
    try {
      accounted =
          commands.run(
              List.of(
                  "sacct",
                  "--noheader",
                  "--parsable2",
                  "--format=JobID,State,ExitCode,ReqMem,MaxRSS",
                  "--jobs=" + String.join(",", jobs)));
    } catch (SlurmException e) {
      log.warn("cannot read Slurm's accounting for memory kills: {}", e.getMessage());
      return;
    }
    long now = System.nanoTime();
    Set<String> undecided = SlurmStates.notYetAccounted(accounted, unexplained);
    for (String ref : unexplained) {
      if (!undecided.contains(ref)) {
        awaitingAccounting.remove(ref);
        continue;
      }
      long since = awaitingAccounting.computeIfAbsent(ref, key -> now);
      if (now - since < ACCOUNTING_WAIT.toNanos()) {
        found.put(
            ref,
            LauncherStatus.running(
                found.get(ref).detail()
                    + "; waiting for Slurm's accounting to say whether it was killed for its"
                    + " memory"));
      } else {
        awaitingAccounting.remove(ref); // waited long enough: the end stands as Slurm gave it
      }
    }
    SlurmStates.overMemory(accounted)
        .forEach(
            (ref, memory) ->
                found.computeIfPresent(
                    ref,
                    (key, status) ->
                        unexplainedEnd(status)
                            ? LauncherStatus.killed(
                                status.detail() + ", " + memory.describe(),
                                FailureClass.OUT_OF_MEMORY)
                            : status));
  }

  /** An end whose Slurm state does not say why: not a time limit, not out of memory. */
  private static boolean unexplainedEnd(LauncherStatus status) {
    return (status.phase() == LauncherStatus.Phase.ENDED
            || status.phase() == LauncherStatus.Phase.KILLED)
        && status.failure() != FailureClass.OUT_OF_MEMORY
        && status.failure() != FailureClass.TIMED_OUT;
  }

  /**
   * The tasks' peak memory from Slurm's accounting, {@code MaxRSS} of their steps ({@link
   * SlurmStates#maxRss}); none when accounting is off or cannot be read.
   */
  @Override
  public Map<String, Long> peakMemory(Collection<String> launcherRefs) {
    Set<String> jobs = new LinkedHashSet<>();
    for (String ref : launcherRefs) {
      var match = REF.matcher(ref);
      if (match.matches()) {
        jobs.add(match.group(1));
      }
    }
    if (jobs.isEmpty() || !accountingOn()) {
      return Map.of();
    }
    try {
      Map<String, Long> peaks =
          new HashMap<>(
              SlurmStates.maxRss(
                  commands.run(
                      List.of(
                          "sacct",
                          "--noheader",
                          "--parsable2",
                          "--format=JobID,MaxRSS",
                          "--jobs=" + String.join(",", jobs)))));
      peaks.keySet().retainAll(Set.copyOf(launcherRefs));
      return peaks;
    } catch (SlurmException e) {
      log.warn("cannot read Slurm's accounting for peak memory: {}", e.getMessage());
      return Map.of();
    }
  }

  private boolean accountingOn() {
    Boolean known = accounting;
    if (known == null) {
      try {
        String config = commands.run(List.of("scontrol", "show", "config"));
        known =
            !config.contains("accounting_storage/none") && config.contains("AccountingStorageType");
      } catch (SlurmException e) {
        known = false;
      }
      accounting = known;
    }
    return known;
  }

  /** Cancels the task. A task that already ended, or that Slurm forgot, is fine. */
  @Override
  public void stop(String launcherRef) {
    Objects.requireNonNull(launcherRef, "launcherRef");
    if (!REF.matcher(launcherRef).matches()) {
      throw new IllegalArgumentException(
          "a slurm launcher ref is an array task, <job id>_<task>; got \"" + launcherRef + "\"");
    }
    try {
      commands.run(List.of("scancel", launcherRef));
      log.info("Slurm task {} cancelled", launcherRef);
    } catch (SlurmException e) {
      String message = e.getMessage();
      if (!message.contains("already completing or completed")
          && !message.contains("Invalid job id")) {
        throw new IllegalStateException(message + "; cancel it by hand: scancel " + launcherRef, e);
      }
    }
  }
}
