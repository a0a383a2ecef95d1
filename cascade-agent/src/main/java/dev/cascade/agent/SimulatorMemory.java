package dev.cascade.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

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

  /** Samples {@code root}'s tree now; returns what it holds, in bytes (0 once it is gone). */
  long sample(ProcessHandle root) {
    long total = 0;
    try (Stream<ProcessHandle> descendants = root.descendants()) {
      total += resident(root.pid());
      total += descendants.mapToLong(process -> resident(process.pid())).sum();
    }
    peak.accumulateAndGet(total, Math::max);
    return total;
  }

  /** The largest of the samples so far, in bytes; 0 before the first. */
  long peakBytes() {
    return peak.get();
  }

  /** {@code VmRSS} of one process in bytes; 0 when it is gone or has none (a zombie). */
  private long resident(long pid) {
    try {
      for (String line : Files.readAllLines(proc.resolve(Long.toString(pid)).resolve("status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // ended while sampled
    }
    return 0;
  }
}
