package dev.cascade.agent;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peak resident memory of the simulator's process tree, from Linux's {@code /proc}: the
 * simulator process and its descendants, each one's {@code VmRSS}, summed at each sample. The agent
 * reports it with its heartbeats, so a sim has a peak where its launcher measures none (a Sail
 * sandbox, a Slurm cluster without accounting); a launcher that measures the whole tree (the
 * agent's JVM too) keeps its own, larger figure. Nothing is measured where there is no {@code
 * /proc}.
 */
final class SimulatorMemory {

  private final Path proc;
  private final AtomicLong peak = new AtomicLong();

  /** On the system's {@code /proc}. */
  SimulatorMemory() {
    this(Path.of("/proc"));
  }

  SimulatorMemory(Path proc) {
    this.proc = proc;
  }

  /**
   * Samples {@code root}'s tree now; returns what it holds, in bytes (0 once it is gone). The tree
   * is walked by each thread's {@code children} file, not by listing every process of the machine
   * ({@link ProcessHandle#descendants}), since every agent on a node samples four times a second.
   */
  long sample(ProcessHandle root) {
    long total = 0;
    Deque<Long> toVisit = new ArrayDeque<>(List.of(root.pid()));
    Set<Long> seen = new HashSet<>();
    while (!toVisit.isEmpty()) {
      long pid = toVisit.removeFirst();
      if (seen.add(pid)) {
        total += ProcFiles.residentBytes(proc, pid).orElse(0);
        toVisit.addAll(ProcFiles.children(proc, pid));
      }
    }
    peak.accumulateAndGet(total, Math::max);
    return total;
  }

  /** The largest of the samples so far, in bytes; 0 before the first. */
  long peakBytes() {
    return peak.get();
  }
}
