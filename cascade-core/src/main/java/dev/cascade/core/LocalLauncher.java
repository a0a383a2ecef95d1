package dev.cascade.core;

import dev.cascade.agent.ProcessGroups;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs each sim as a local process in a process group of its own ({@code setsid}), with stdout and
 * stderr appended to the launch's output file and its token as the first line of its stdin. The
 * launcher ref is the process id, which is also the group id. A sim's environment is the launch's
 * ({@link SimLaunch#environment()}) over {@link #BASE_VARIABLES}, never the rest of the app's.
 * {@link #stop} sends SIGTERM to the group and SIGKILL after a grace period (5 s by default), so
 * nothing the sim started is left behind, and reaps the process it started itself. It runs at most
 * {@link #slots()} sims at once (by default one per core); Cascade queues the rest.
 */
public final class LocalLauncher implements Launcher {

  public static final String NAME = "local";

  /** The most sims a local launcher may be given at once. */
  public static final int MAX_SLOTS = 1024;

  /**
   * The app's variables a local sim inherits: what finding programs, files and shared libraries
   * needs ({@code LD_LIBRARY_PATH} is no secret, and a simulator built against libraries outside
   * the system folders cannot start without it).
   */
  public static final List<String> BASE_VARIABLES =
      List.of("PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TMPDIR", "LD_LIBRARY_PATH");

  private final Duration stopGrace;
  private final int slots;

  /** The OS user sims run as ({@link #withSimUser}); null for the app's own. */
  private final SimUser simUser;

  private final Map<Long, Process> started = new ConcurrentHashMap<>();

  /** The exit of each process started here, until it is stopped: {@link #exitOf}. */
  private final Map<Long, CompletableFuture<Integer>> exits = new ConcurrentHashMap<>();

  /** A launcher that gives sims 5 s to exit after SIGTERM, with a slot per core. */
  public LocalLauncher() {
    this(Duration.ofSeconds(5));
  }

  /** A launcher with a slot per core. */
  public LocalLauncher(Duration stopGrace) {
    this(stopGrace, defaultSlots());
  }

  /**
   * @param slots how many sims run at once, 1 to {@value #MAX_SLOTS}; the rest wait as {@code
   *     pending}
   */
  public LocalLauncher(Duration stopGrace, int slots) {
    if (stopGrace.isNegative()) {
      throw new IllegalArgumentException("stopGrace cannot be negative; got " + stopGrace);
    }
    this.stopGrace = stopGrace;
    this.slots = requireSlots(slots);
    this.simUser = null;
  }

  private LocalLauncher(Duration stopGrace, int slots, SimUser simUser) {
    this.stopGrace = stopGrace;
    this.slots = slots;
    this.simUser = simUser;
  }

  /**
   * A new launcher like this one that runs every sim as the OS user {@code user} ({@code cascade
   * serve --sim-user}): through {@code runuser} when the app runs as root, else {@code sudo -n -u
   * user}. Another user's sim cannot read the app's processes, its data dir's private files or
   * another user's sims (docs/operations.md, Threat model). The sim's folder and its agent's spool
   * are made for that user. Nothing it started carries over.
   *
   * @throws CascadeException {@code INVALID} naming the user when sims cannot run as it here: no
   *     such user, it is the app's own, {@code runuser} is missing, or {@code sudo} would ask for a
   *     password
   */
  public LocalLauncher withSimUser(String user) {
    return new LocalLauncher(stopGrace, slots, SimUser.check(user));
  }

  /** The OS user sims run as, when not the app's own. */
  public Optional<String> simUser() {
    return Optional.ofNullable(simUser).map(SimUser::name);
  }

  /** One slot per core the JVM may use. */
  public static int defaultSlots() {
    return Math.max(1, Math.min(MAX_SLOTS, Runtime.getRuntime().availableProcessors()));
  }

  /** {@code slots} when it is 1 to {@value #MAX_SLOTS}. */
  public static int requireSlots(int slots) {
    if (slots < 1 || slots > MAX_SLOTS) {
      throw new IllegalArgumentException(
          "local slots must be 1 to " + MAX_SLOTS + " sims at once; got " + slots);
    }
    return slots;
  }

  /** A new launcher like this one with {@code slots} slots; nothing it started carries over. */
  public LocalLauncher withSlots(int slots) {
    return new LocalLauncher(stopGrace, requireSlots(slots), simUser);
  }

  @Override
  public OptionalInt slots() {
    return OptionalInt.of(slots);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Optional<String> unavailableReason() {
    return ProcessGroups.unavailableReason();
  }

  @Override
  public String launch(SimLaunch launch) throws LaunchException {
    Optional<String> unavailable = unavailableReason();
    if (unavailable.isPresent()) {
      throw new LaunchException("the local launcher cannot run here: " + unavailable.get());
    }
    String program = launch.command().getFirst();
    String path = launch.environment().getOrDefault("PATH", System.getenv("PATH"));
    if (findExecutable(program, path, launch.workDir()).isEmpty()) {
      throw new LaunchException(
          "cannot start sim "
              + launch.simId()
              + ": \""
              + program
              + "\" is not an executable file"
              + (program.contains("/") ? "" : " on PATH (" + path + ")")
              + "; check CASCADE_SIM_CMD");
    }
    List<String> command = new ArrayList<>();
    command.add(ProcessGroups.setsid().orElseThrow().toString());
    Map<String, String> environment = new LinkedHashMap<>(baseEnvironment());
    environment.putAll(launch.environment());
    if (simUser != null) {
      // The variables go on env's command line: sudo would drop them. None is a secret.
      command.addAll(simUser.prefix());
      command.add("env");
      command.add("-i");
      environment.forEach((name, value) -> command.add(name + "=" + value));
    }
    command.addAll(launch.command());
    try {
      Files.createDirectories(launch.workDir());
      Files.createDirectories(launch.output().toAbsolutePath().getParent());
      if (simUser != null) {
        simUser.own(launch.workDir());
        simUser.own(launch.workDir().resolveSibling(launch.simId() + ".spool"));
      }
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(launch.workDir().toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(launch.output().toFile()))
              .redirectInput(ProcessBuilder.Redirect.PIPE);
      // An explicit environment: nothing of the app's (its user token, its secrets) but the basics.
      builder.environment().clear();
      builder.environment().putAll(environment);
      Process process = builder.start();
      long pid = process.pid();
      giveToken(process, launch);
      started.put(pid, process);
      // The JDK reaps its own child; forget it once it has exited.
      process.onExit().thenRun(() -> started.remove(pid));
      exits.put(pid, exitLeavingNothing(process));
      return Long.toString(pid);
    } catch (IOException e) {
      throw new LaunchException(
          "cannot start sim " + launch.simId() + ": " + e.getMessage(), false, e);
    }
  }

  /**
   * Writes the sim's token as the first line of its standard input and closes it: never in its
   * environment or on a command line, where every process of the same user could read it. A sim
   * that exits before reading it has no use for it.
   */
  private static void giveToken(Process process, SimLaunch launch) {
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(launch.contract().tokenInput());
    } catch (IOException exitedAlready) {
      // Its exit is seen as any other.
    }
  }

  /**
   * The exit code once the process has exited and its group is empty; never completes when the
   * process left something of its group running (a wrapper whose simulator runs on and reports).
   */
  private static CompletableFuture<Integer> exitLeavingNothing(Process process) {
    return process
        .onExit()
        .thenCompose(
            ended ->
                ProcessGroups.isAlive(ended.pid())
                    ? new CompletableFuture<>()
                    : CompletableFuture.completedFuture(ended.exitValue()));
  }

  @Override
  public Optional<CompletableFuture<Integer>> exitOf(String launcherRef) {
    return Optional.ofNullable(exits.get(groupIdOf(launcherRef)));
  }

  /** Looks through {@code /proc} for process groups whose environment names the sim. */
  @Override
  public Map<String, String> findRunning(Set<String> simIds) {
    return LocalSimProcesses.find(simIds);
  }

  @Override
  public boolean hasEnded(String launcherRef) {
    return !ProcessGroups.isAlive(groupIdOf(launcherRef));
  }

  private static long groupIdOf(String launcherRef) {
    long groupId;
    try {
      groupId = Long.parseLong(launcherRef);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "a local launcher ref is a process id; got \"" + launcherRef + "\"", e);
    }
    if (groupId <= 1) {
      throw new IllegalArgumentException("refusing to signal process group " + groupId);
    }
    return groupId;
  }

  @Override
  public void stop(String launcherRef) {
    long groupId = groupIdOf(launcherRef);
    exits.remove(groupId);
    ProcessGroups.terminate(groupId, stopGrace);
    Process process = started.remove(groupId);
    if (process != null) {
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * What every local sim gets from the app's own environment, so that a program can start: {@link
   * #BASE_VARIABLES} when set. Anything else reaches a sim only through the launch's environment.
   */
  static Map<String, String> baseEnvironment() {
    Map<String, String> base = new LinkedHashMap<>();
    for (String name : BASE_VARIABLES) {
      String value = System.getenv(name);
      if (value != null) {
        base.put(name, value);
      }
    }
    return base;
  }

  private static Optional<Path> findExecutable(String program, String path, Path workDir) {
    if (program.contains("/")) {
      Path file = workDir.resolve(program);
      return Files.isRegularFile(file) && Files.isExecutable(file)
          ? Optional.of(file)
          : Optional.empty();
    }
    if (path == null) {
      return Optional.empty();
    }
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isEmpty()) {
        continue;
      }
      Path file = Path.of(directory, program);
      if (Files.isRegularFile(file) && Files.isExecutable(file)) {
        return Optional.of(file);
      }
    }
    return Optional.empty();
  }
}
