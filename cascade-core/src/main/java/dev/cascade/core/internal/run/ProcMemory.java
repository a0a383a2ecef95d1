package dev.cascade.core.internal.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Memory as Linux's {@code /proc} tells it: the memory free now ({@code MemAvailable} of {@code
 * /proc/meminfo}), the machine's memory ({@code MemTotal}), and the resident memory of a process
 * and every descendant ({@code VmRSS} of {@code /proc/PID/status}, children from {@code
 * /proc/PID/task/TID/children}): what a local sim's process tree holds, sampled for its peak. Empty
 * where there is no {@code /proc}.
 */
public final class ProcMemory {

  private final Path proc;

  /** The system's {@code /proc}. */
  public ProcMemory() {
    this(Path.of("/proc"));
  }

  /** A {@code /proc} at {@code proc}: a folder a test writes. */
  ProcMemory(Path proc) {
    this.proc = proc;
  }

  /** {@code MemAvailable}, in bytes. */
  public OptionalLong available() {
    return meminfo("MemAvailable:");
  }

  /** {@code MemTotal}, in bytes. */
  public OptionalLong total() {
    return meminfo("MemTotal:");
  }

  /**
   * The resident memory of process {@code pid} and all its descendants now, in bytes; empty when
   * the process is gone.
   */
  public OptionalLong treeResident(long pid) {
    Deque<Long> toVisit = new ArrayDeque<>();
    Set<Long> seen = new HashSet<>();
    toVisit.add(pid);
    long total = 0;
    boolean any = false;
    while (!toVisit.isEmpty()) {
      long next = toVisit.removeFirst();
      if (!seen.add(next)) {
        continue;
      }
      OptionalLong resident = resident(next);
      if (resident.isEmpty()) {
        continue; // ended while we looked
      }
      any = true;
      total += resident.getAsLong();
      toVisit.addAll(children(next));
    }
    return any ? OptionalLong.of(total) : OptionalLong.empty();
  }

  private OptionalLong resident(long pid) {
    try {
      OptionalLong rss =
          kibibytes(Files.readString(proc.resolve(Long.toString(pid)).resolve("status")), "VmRSS:");
      return rss.isPresent() ? rss : OptionalLong.of(0); // a zombie or kernel thread: no VmRSS
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }

  private Set<Long> children(long pid) {
    Set<Long> children = new HashSet<>();
    Path tasks = proc.resolve(Long.toString(pid)).resolve("task");
    try (var threads = Files.newDirectoryStream(tasks)) {
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

  private OptionalLong meminfo(String key) {
    try {
      return kibibytes(Files.readString(proc.resolve("meminfo")), key);
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }

  /** The {@code key 123 kB} line of {@code text}, in bytes. */
  static OptionalLong kibibytes(String text, String key) {
    for (String line : text.split("\n")) {
      if (line.startsWith(key)) {
        String[] fields = line.substring(key.length()).trim().split("\\s+");
        try {
          return OptionalLong.of(Long.parseLong(fields[0]) * 1024);
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }
}
