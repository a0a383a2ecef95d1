package dev.cascade.agent;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the members of an {@link EmulatorFleet} share: the event loop, the HTTP client, and the
 * counters of the report. Touched on the loop thread only.
 */
final class FleetLoop {
  final ScheduledExecutorService executor;
  final HttpClient http;
  final CountDownLatch done;
  final List<FleetSim> sims = new ArrayList<>();
  private final int members;
  long[] latencies = new long[1024];
  int latencyCount;
  long chunks;
  long bytes;
  long heartbeats;
  long retries;
  long lostChunks;
  int succeeded;
  int failed;
  int cancelled;
  int unfinished;

  FleetLoop(ScheduledExecutorService executor, HttpClient http, int members) {
    this.executor = executor;
    this.http = http;
    this.members = members;
    this.done = new CountDownLatch(members);
  }

  void tick() {
    long now = System.nanoTime();
    for (FleetSim sim : sims) {
      sim.tick(now);
    }
  }

  void latency(long nanos) {
    if (latencyCount == latencies.length) {
      latencies = Arrays.copyOf(latencies, latencies.length * 2);
    }
    latencies[latencyCount++] = nanos;
    heartbeats++;
  }

  void schedule(Runnable task, long delayNanos) {
    executor.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
  }

  /** Read after {@code done.await()}, which makes the loop thread's counters visible. */
  EmulatorFleet.Report report(Duration wall) {
    long[] sorted = Arrays.copyOf(latencies, latencyCount);
    Arrays.sort(sorted);
    return new EmulatorFleet.Report(
        members,
        succeeded,
        failed,
        cancelled,
        unfinished,
        chunks,
        bytes,
        heartbeats,
        retries,
        lostChunks,
        wall,
        Duration.ofNanos(percentile(sorted, 0.50)),
        Duration.ofNanos(percentile(sorted, 0.99)),
        Duration.ofNanos(sorted.length == 0 ? 0 : sorted[sorted.length - 1]));
  }

  private static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
