package dev.cascade.core.internal.run;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory of local sims while they run: every {@code interval} it samples each watched sim's
 * process tree ({@link ProcMemory#tree}) for its resident memory now and its peak, and notes the
 * memory cgroups its processes are in with their out-of-memory kill counts when first seen. When a
 * sim ends, {@link #reading} says its peak and whether the kernel's out-of-memory killer ended a
 * process in one of those cgroups meanwhile: what tells an OOM kill from any other SIGKILL.
 */
final class SimMemoryWatch implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SimMemoryWatch.class);

  /** What a watched sim's memory came to. */
  record Reading(long peakBytes, Optional<String> oomKill) {}

  /** Told a running sim's peak when it has grown, to store it (the sim card shows it live). */
  interface PeakSink {
    void peak(String simId, long peakBytes);
  }

  private static final class Watched {
    final long pid;
    final Map<Path, Long> oomKillsAtFirstSight = new HashMap<>();
    long residentBytes;
    long peakBytes;
    long storedPeakBytes;

    Watched(long pid) {
      this.pid = pid;
    }
  }

  private final ProcMemory memory;
  private final long intervalMillis;
  private volatile PeakSink sink = (simId, peakBytes) -> {};
  private volatile Runnable afterSample = () -> {};
  private final Map<String, Watched> watched = new ConcurrentHashMap<>();
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(
          task -> Thread.ofPlatform().daemon().name("cascade-sim-memory").unstarted(task));

  /** Samples every {@code intervalMillis} once {@link #start}ed. */
  SimMemoryWatch(ProcMemory memory, long intervalMillis) {
    this.memory = memory;
    this.intervalMillis = intervalMillis;
  }

  /**
   * Starts sampling.
   *
   * @param sink told a running sim's peak when it grew by a tenth since last told
   * @param afterSample run after each round of samples (the queue looks again at what fits)
   */
  void start(PeakSink sink, Runnable afterSample) {
    this.sink = sink;
    this.afterSample = afterSample;
    sampler.scheduleWithFixedDelay(this::sampleAll, 0, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** Starts watching the process tree of sim {@code simId}, whose first process is {@code pid}. */
  void watch(String simId, long pid) {
    Watched sim = new Watched(pid);
    watched.put(simId, sim);
    sampler.execute(() -> sample(simId, sim));
  }

  /** The memory the sim's process tree held at the last sample; empty when not watched. */
  OptionalLong resident(String simId) {
    Watched sim = watched.get(simId);
    if (sim == null) {
      return OptionalLong.empty();
    }
    synchronized (sim) {
      return OptionalLong.of(sim.residentBytes);
    }
  }

  /**
   * The sim's peak so far and whether an out-of-memory kill happened in its cgroups since they were
   * first seen; empty when the sim is not watched or was never seen running. It keeps watching.
   */
  Optional<Reading> reading(String simId) {
    Watched sim = watched.get(simId);
    return sim == null ? Optional.empty() : readingOf(sim);
  }

  /** Stops watching the sim; what it came to, as {@link #reading}. */
  Optional<Reading> stop(String simId) {
    Watched sim = watched.remove(simId);
    return sim == null ? Optional.empty() : readingOf(sim);
  }

  private Optional<Reading> readingOf(Watched sim) {
    synchronized (sim) {
      if (sim.peakBytes == 0 && sim.oomKillsAtFirstSight.isEmpty()) {
        return Optional.empty();
      }
      String oomKill = null;
      for (Map.Entry<Path, Long> cgroup : sim.oomKillsAtFirstSight.entrySet()) {
        OptionalLong now = memory.oomKills(cgroup.getKey());
        if (now.isPresent() && now.getAsLong() > cgroup.getValue()) {
          oomKill =
              "the kernel's out-of-memory killer ended a process of it (oom_kill of "
                  + cgroup.getKey()
                  + " went from "
                  + cgroup.getValue()
                  + " to "
                  + now.getAsLong()
                  + ")";
          break;
        }
      }
      return Optional.of(new Reading(sim.peakBytes, Optional.ofNullable(oomKill)));
    }
  }

  private void sampleAll() {
    try {
      watched.forEach(this::sample);
      afterSample.run();
    } catch (RuntimeException e) {
      log.warn("sampling sims' memory failed; trying again", e);
    }
  }

  private void sample(String simId, Watched sim) {
    Optional<ProcMemory.Tree> tree = memory.tree(sim.pid);
    if (tree.isEmpty()) {
      return; // ended: its peak stays
    }
    long toStore = 0;
    synchronized (sim) {
      sim.residentBytes = tree.get().residentBytes();
      sim.peakBytes = Math.max(sim.peakBytes, sim.residentBytes);
      for (Path counter : tree.get().oomCounters()) {
        if (!sim.oomKillsAtFirstSight.containsKey(counter)) {
          memory.oomKills(counter).ifPresent(kills -> sim.oomKillsAtFirstSight.put(counter, kills));
        }
      }
      if (sim.peakBytes > sim.storedPeakBytes + sim.storedPeakBytes / 10) {
        sim.storedPeakBytes = sim.peakBytes;
        toStore = sim.peakBytes;
      }
    }
    if (toStore > 0 && watched.get(simId) == sim) {
      sink.peak(simId, toStore);
    }
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    watched.clear();
  }
}
