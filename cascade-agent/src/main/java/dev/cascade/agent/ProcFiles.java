package dev.cascade.agent;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What Linux's {@code /proc} says of one process that memory sampling needs: its resident memory
 * and its children. The agent samples its simulator's tree with these, and the server a local sim's
 * whole tree; {@code proc} is the system's {@code /proc} or a folder a test writes.
 */
public final class ProcFiles {

  private ProcFiles() {}

  /**
   * {@code VmRSS} of {@code /proc/PID/status}, in bytes: 0 for a process without one (a zombie or a
   * kernel thread), empty once it is gone.
   */
  public static OptionalLong residentBytes(Path proc, long pid) {
    try {
      for (String line : Files.readAllLines(proc.resolve(Long.toString(pid)).resolve("status"))) {
        if (line.startsWith("VmRSS:")) {
          return OptionalLong.of(Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024);
        }
      }
      return OptionalLong.of(0);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * The process's children, from each of its threads' {@code /proc/PID/task/TID/children}; none
   * once it is gone. Walking a tree this way reads its own processes only, not every process of the
   * machine.
   */
  public static Set<Long> children(Path proc, long pid) {
    Set<Long> children = new LinkedHashSet<>();
    try (DirectoryStream<Path> threads =
        Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("task"))) {
      for (Path thread : threads) {
        try {
          for (String child : Files.readString(thread.resolve("children")).trim().split("\\s+")) {
            if (!child.isEmpty()) {
              children.add(Long.parseLong(child));
            }
          }
        } catch (IOException | NumberFormatException e) {
          // the thread ended, or the kernel has no children file: nothing to add
        }
      }
    } catch (IOException e) {
      // the process ended
    }
    return children;
  }
}
