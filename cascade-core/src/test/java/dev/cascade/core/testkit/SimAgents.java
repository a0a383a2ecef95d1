package dev.cascade.core.testkit;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.agent.SimContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The sim agent processes a test started, found by the test's own folder, and stopped by pid. A
 * launcher's own stop goes through its scheduler (Slurm's {@code scancel}), which cannot help once
 * the scheduler is gone: the agent then lives on with parent 1. A test's agents are the {@code
 * SimAgentMain} processes whose data dir ({@code CASCADE_DATA_DIR}), working directory or command
 * line is inside the test's folder, so no other test's agent is touched. Linux only ({@code
 * /proc}); elsewhere none is found.
 */
public final class SimAgents {

  /** The class every sim agent runs, as its command line names it. */
  static final String AGENT_MAIN = SimAgentMain.class.getName();

  private static final String DATA_DIR_IS = SimContract.DATA_DIR + "=";
  private static final Duration TERM_GRACE = Duration.ofSeconds(5);
  private static final Duration KILL_WAIT = Duration.ofSeconds(5);

  private SimAgents() {}

  /**
   * The running sim agents whose data dir, working directory or command line is inside {@code dir}.
   */
  public static List<ProcessHandle> runningUnder(Path dir) {
    List<Path> roots = roots(dir);
    Path proc = Path.of("/proc");
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(process -> process.pid() != ProcessHandle.current().pid())
        .filter(process -> isAgentUnder(proc.resolve(Long.toString(process.pid())), roots))
        .toList();
  }

  /**
   * Stops every sim agent {@link #runningUnder} {@code dir}: SIGTERM, then SIGKILL for any still
   * running after a grace period. Returns the pids it found, so a caller can say what was left.
   */
  public static List<Long> stopUnder(Path dir) {
    List<ProcessHandle> agents = runningUnder(dir);
    agents.forEach(ProcessHandle::destroy);
    awaitExit(agents, TERM_GRACE);
    List<ProcessHandle> stubborn = agents.stream().filter(ProcessHandle::isAlive).toList();
    stubborn.forEach(ProcessHandle::destroyForcibly);
    awaitExit(stubborn, KILL_WAIT);
    List<Long> pids = new ArrayList<>();
    agents.forEach(agent -> pids.add(agent.pid()));
    return pids;
  }

  private static boolean isAgentUnder(Path procEntry, List<Path> roots) {
    String commandLine = read(procEntry.resolve("cmdline")).replace('\0', ' ');
    if (!commandLine.contains(AGENT_MAIN)) {
      return false;
    }
    if (roots.stream().anyMatch(root -> commandLine.contains(root.toString()))) {
      return true;
    }
    for (String variable : read(procEntry.resolve("environ")).split("\0")) {
      if (variable.startsWith(DATA_DIR_IS)
          && isInside(Path.of(variable.substring(DATA_DIR_IS.length())), roots)) {
        return true;
      }
    }
    try {
      // A folder removed under the process reads "<path> (deleted)".
      String cwd = Files.readSymbolicLink(procEntry.resolve("cwd")).toString();
      return isInside(Path.of(cwd.replaceFirst(" \\(deleted\\)$", "")), roots);
    } catch (IOException | UnsupportedOperationException e) {
      return false; // gone, or not ours to read
    }
  }

  private static boolean isInside(Path path, List<Path> roots) {
    Path normal = path.toAbsolutePath().normalize();
    return roots.stream().anyMatch(normal::startsWith);
  }

  /** The folder as given and as the kernel names it (/tmp may be a link). */
  private static List<Path> roots(Path dir) {
    Path given = dir.toAbsolutePath().normalize();
    try {
      Path real = given.toRealPath();
      return real.equals(given) ? List.of(given) : List.of(given, real);
    } catch (IOException e) {
      return List.of(given);
    }
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return ""; // gone meanwhile, or not readable: not ours to judge
    }
  }

  private static void awaitExit(List<ProcessHandle> processes, Duration wait) {
    if (processes.isEmpty()) {
      return;
    }
    try {
      CompletableFuture.allOf(
              processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
          .get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // Some still run: the caller kills them or reports them.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
