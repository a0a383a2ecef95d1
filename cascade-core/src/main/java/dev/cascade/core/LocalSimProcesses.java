package dev.cascade.core;

import dev.cascade.agent.SimContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds local sim processes by the {@code CASCADE_SIM_ID} in their environment ({@code
 * /proc/<pid>/environ}, Linux): after a crash between a launch and the storing of its pid, the
 * process may run on, and must be adopted rather than launched twice. Only process group leaders
 * count, as the launcher ref is the group id.
 *
 * <p>The launched process is the sim agent, and the simulator it starts leads a group of its own
 * with the same variable: what is adopted is the group of the process that started the others. The
 * agent makes itself undumpable, so only root reads its environment; a parent whose environment
 * cannot be read is taken for the agent of the simulator it started ({@code /proc/<pid>/stat},
 * which anyone reads, gives the parent). An agent that has not started its simulator yet is found
 * by a server running as root only.
 */
final class LocalSimProcesses {

  private LocalSimProcesses() {}

  /** The pid of each of {@code simIds} whose process group leader is alive; none without /proc. */
  static Map<String, String> find(Set<String> simIds) {
    return find(simIds, Path.of("/proc"));
  }

  /** As {@link #find(Set)}, on a {@code /proc} at {@code proc} (a folder a test writes). */
  static Map<String, String> find(Set<String> simIds, Path proc) {
    Map<String, String> found = new HashMap<>();
    if (simIds.isEmpty() || !Files.isDirectory(proc)) {
      return found;
    }
    try (Stream<Path> entries = Files.list(proc)) {
      for (Path entry : entries.toList()) {
        String pid = entry.getFileName().toString();
        if (!pid.chars().allMatch(Character::isDigit)) {
          continue;
        }
        Optional<Stat> stat = stat(entry);
        if (stat.isEmpty() || !stat.get().leadsItsGroup()) {
          continue;
        }
        Optional<String> simId = simIdOf(entry).filter(simIds::contains);
        if (simId.isPresent()) {
          found.put(simId.get(), launcherOf(proc, stat.get(), simId.get()));
        }
      }
    } catch (IOException e) {
      // no /proc to read: nothing found, the sims are launched again
    }
    return found;
  }

  /**
   * The pid of the group that started {@code process} for the sim: its parent while that leads a
   * live group and names the same sim; then, once, a parent whose environment cannot be read (an
   * undumpable agent), never init.
   */
  private static String launcherOf(Path proc, Stat process, String simId) {
    Stat top = process;
    Set<String> seen = new HashSet<>();
    while (seen.add(top.pid())) {
      Path parent = proc.resolve(top.parentPid());
      Optional<Stat> parentStat = stat(parent);
      if (top.parentPid().equals("1")
          || parentStat.isEmpty()
          || !parentStat.get().leadsItsGroup()) {
        break;
      }
      Optional<String> environ = environ(parent);
      if (environ.isEmpty()) {
        // Unreadable: an undumpable agent. An orphaned simulator's parent is init (kept out
        // above) or the user's own subreaper, which is readable.
        top = parentStat.get();
        break;
      }
      if (simIdIn(environ.get()).filter(simId::equals).isEmpty()) {
        break;
      }
      top = parentStat.get();
    }
    return top.pid();
  }

  /** The fields of {@code /proc/<pid>/stat} this needs. */
  private record Stat(String pid, String state, String parentPid, String groupId) {
    boolean leadsItsGroup() {
      return !state.equals("Z") && groupId.equals(pid);
    }
  }

  private static Optional<Stat> stat(Path entry) {
    try {
      String stat = Files.readString(entry.resolve("stat"));
      // pid (comm) state ppid pgrp ...: the fields after the command's closing parenthesis
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Optional.of(
          new Stat(entry.getFileName().toString(), fields[0], fields[1], fields[2].strip()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // gone meanwhile
    }
  }

  /** {@code /proc/PID/environ}; empty when it is gone or not ours to read. */
  private static Optional<String> environ(Path entry) {
    try {
      return Optional.of(
          new String(Files.readAllBytes(entry.resolve("environ")), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> simIdOf(Path entry) {
    return environ(entry).flatMap(LocalSimProcesses::simIdIn);
  }

  private static Optional<String> simIdIn(String environ) {
    String prefix = SimContract.SIM_ID + "=";
    for (String variable : environ.split("\0")) {
      if (variable.startsWith(prefix)) {
        return Optional.of(variable.substring(prefix.length()));
      }
    }
    return Optional.empty();
  }
}
