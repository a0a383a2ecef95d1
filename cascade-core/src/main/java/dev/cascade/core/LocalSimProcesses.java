package dev.cascade.core;

import dev.cascade.agent.SimContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds local sim processes by the {@code CASCADE_SIM_ID} in their environment ({@code
 * /proc/<pid>/environ}, Linux): after a crash between a launch and the storing of its pid, the
 * process may run on, and must be adopted rather than launched twice. Only process group leaders
 * count, as the launcher ref is the group id.
 */
final class LocalSimProcesses {

  private LocalSimProcesses() {}

  /** The pid of each of {@code simIds} whose process group leader is alive; none without /proc. */
  static Map<String, String> find(Set<String> simIds) {
    Map<String, String> found = new HashMap<>();
    Path proc = Path.of("/proc");
    if (simIds.isEmpty() || !Files.isDirectory(proc)) {
      return found;
    }
    try (Stream<Path> entries = Files.list(proc)) {
      for (Path entry : entries.toList()) {
        String pid = entry.getFileName().toString();
        if (pid.chars().allMatch(Character::isDigit) && isGroupLeader(entry, pid)) {
          simIdOf(entry).filter(simIds::contains).ifPresent(id -> found.put(id, pid));
        }
      }
    } catch (IOException e) {
      // no /proc to read: nothing found, the sims are launched again
    }
    return found;
  }

  private static boolean isGroupLeader(Path entry, String pid) {
    try {
      String stat = Files.readString(entry.resolve("stat"));
      // pid (comm) state ppid pgrp ...: the fields after the command's closing parenthesis
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return !fields[0].equals("Z") && fields[2].equals(pid);
    } catch (IOException | RuntimeException e) {
      return false; // gone meanwhile
    }
  }

  private static java.util.Optional<String> simIdOf(Path entry) {
    try {
      String environ =
          new String(Files.readAllBytes(entry.resolve("environ")), StandardCharsets.UTF_8);
      String prefix = SimContract.SIM_ID + "=";
      for (String variable : environ.split("\0")) {
        if (variable.startsWith(prefix)) {
          return java.util.Optional.of(variable.substring(prefix.length()));
        }
      }
    } catch (IOException e) {
      // gone meanwhile, or not ours to read
    }
    return java.util.Optional.empty();
  }
}
