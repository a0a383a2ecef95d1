package dev.cascade.core.internal.run;

import dev.cascade.agent.ProcFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Memory as Linux's {@code /proc} tells it: the memory free now ({@code MemAvailable} of {@code
 * /proc/meminfo}), the machine's memory ({@code MemTotal}), and the resident memory of a process
 * and every descendant ({@code VmRSS} of {@code /proc/PID/status}, children from {@code
 * /proc/PID/task/TID/children}): what a local sim's process tree holds, sampled for its peak. Empty
 * where there is no {@code /proc}. Also the memory cgroups a tree's processes are in ({@code
 * /proc/PID/cgroup}) and how many processes the kernel's out-of-memory killer ended in each: {@code
 * oom_kill} of {@code memory.events} (cgroup v2) or of {@code memory.oom_control} (v1), under
 * {@code /sys/fs/cgroup}.
 */
public final class ProcMemory {

  private final Path proc;
  private final Path cgroups;

  /** The system's {@code /proc} and {@code /sys/fs/cgroup}. */
  public ProcMemory() {
    this(Path.of("/proc"), Path.of("/sys/fs/cgroup"));
  }

  /** A {@code /proc} at {@code proc}: a folder a test writes. */
  ProcMemory(Path proc) {
    this(proc, proc.resolve("no-cgroups"));
  }

  /** A {@code /proc} and a {@code /sys/fs/cgroup}: folders a test writes. */
  ProcMemory(Path proc, Path cgroups) {
    this.proc = proc;
    this.cgroups = cgroups;
  }

  /**
   * A process tree now: its resident memory and the files counting out-of-memory kills of the
   * memory cgroups its processes are in.
   */
  public record Tree(long residentBytes, Set<Path> oomCounters) {
    public Tree {
      oomCounters = Set.copyOf(oomCounters);
    }
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
    return tree(pid, false)
        .map(tree -> OptionalLong.of(tree.residentBytes()))
        .orElse(OptionalLong.empty());
  }

  /**
   * Process {@code pid} and all its descendants now: their resident memory and their memory
   * cgroups' kill counters; empty when the process is gone.
   */
  public Optional<Tree> tree(long pid) {
    return tree(pid, true);
  }

  private Optional<Tree> tree(long pid, boolean withCgroups) {
    Deque<Long> toVisit = new ArrayDeque<>();
    Set<Long> seen = new HashSet<>();
    Set<Path> counters = new HashSet<>();
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
      if (withCgroups) {
        counters.addAll(oomCounters(next));
      }
      toVisit.addAll(children(next));
    }
    return any ? Optional.of(new Tree(total, counters)) : Optional.empty();
  }

  /**
   * How many processes the out-of-memory killer ended in the cgroup whose counter file this is
   * (from {@link Tree#oomCounters}); empty when it cannot be read.
   */
  public OptionalLong oomKills(Path counter) {
    try {
      for (String line : Files.readString(counter).split("\n")) {
        String[] fields = line.strip().split("\\s+");
        if (fields.length == 2 && fields[0].equals("oom_kill")) {
          return OptionalLong.of(Long.parseLong(fields[1]));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // gone, or a kernel without the count
    }
    return OptionalLong.empty();
  }

  /**
   * The kill counters of the memory cgroups process {@code pid} is in: {@code
   * hierarchy:controllers:path} lines of {@code /proc/PID/cgroup}, v1's {@code memory} controller
   * ({@code memory/PATH/memory.oom_control}) and v2's unified one ({@code PATH/memory.events}),
   * those that exist.
   */
  private Set<Path> oomCounters(long pid) {
    Set<Path> counters = new HashSet<>();
    String text;
    try {
      text = Files.readString(proc.resolve(Long.toString(pid)).resolve("cgroup"));
    } catch (IOException e) {
      return counters;
    }
    for (String line : text.split("\n")) {
      String[] fields = line.strip().split(":", 3);
      if (fields.length < 3 || !fields[2].startsWith("/")) {
        continue;
      }
      String relative = fields[2].substring(1);
      Path counter = null;
      if (fields[0].equals("0") && fields[1].isEmpty()) {
        counter = cgroups.resolve(relative).resolve("memory.events");
      } else if (List.of(fields[1].split(",")).contains("memory")) {
        counter = cgroups.resolve("memory").resolve(relative).resolve("memory.oom_control");
      }
      if (counter != null && Files.isRegularFile(counter)) {
        counters.add(counter);
      }
    }
    return counters;
  }

  private OptionalLong resident(long pid) {
    return ProcFiles.residentBytes(proc, pid);
  }

  private Set<Long> children(long pid) {
    return ProcFiles.children(proc, pid);
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
