package dev.cascade.agent;

import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * What the members of an {@link EmulatorFleet} share: the event loop, the HTTP client with its cap
 * on requests in flight, and the counters of the report. Touched on the loop thread only, but for
 * {@link #finished}, which other threads wait on.
 */
final class FleetLoop {

  /** What a request's answer is handed to, with the time it actually went out. */
  interface Answer {
    void answered(long sentNanos, HttpResponse<String> response, Throwable error);
  }

  private record Waiting(HttpRequest request, Answer answer) {}

  private static final int LOGGED_RETRIES = 5;

  final ScheduledExecutorService executor;
  final HttpClient http;

  /** One permit per member that finished, so a caller waits for as many as it added. */
  final Semaphore finished = new Semaphore(0);

  final List<FleetSim> sims = new ArrayList<>();
  private final int maxInFlight;
  private final PrintStream log;
  private final Deque<Waiting> waiting = new ArrayDeque<>();
  private int inFlight;
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

  FleetLoop(ScheduledExecutorService executor, HttpClient http, int maxInFlight, PrintStream log) {
    this.executor = executor;
    this.log = log;
    this.http = http;
    this.maxInFlight = maxInFlight;
  }

  void tick() {
    long now = System.nanoTime();
    // Finished members have nothing left to do; dropping them keeps a tick as cheap as the live.
    sims.removeIf(FleetSim::isFinished);
    for (FleetSim sim : sims) {
      sim.tick(now);
    }
  }

  /**
   * Sends {@code request}, or queues it while {@code maxInFlight} are out: thousands of members in
   * one JVM would otherwise open a connection each, past the open-file limit, and measure their own
   * connection storm instead of the app.
   */
  void send(HttpRequest request, Answer answer) {
    if (inFlight >= maxInFlight) {
      waiting.add(new Waiting(request, answer));
      return;
    }
    inFlight++;
    long sent = System.nanoTime();
    http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .whenCompleteAsync(
            (response, error) -> {
              inFlight--;
              Waiting next = waiting.poll();
              if (next != null) {
                send(next.request(), next.answer());
              }
              answer.answered(sent, response, error);
            },
            executor);
  }

  /** Counts a request to try again; the first few say why, as a load test needs to know. */
  void retry(String simId, String why) {
    if (retries++ < LOGGED_RETRIES) {
      log.println("cascade emulate: sim " + simId + ": trying again: " + why);
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

  /**
   * Run on the loop thread, so the counters are read where they are written. Members that gave up,
   * were refused, or are still going are the unfinished.
   */
  EmulatorFleet.Report report(int members, Duration wall) {
    long[] sorted = Arrays.copyOf(latencies, latencyCount);
    Arrays.sort(sorted);
    return new EmulatorFleet.Report(
        members,
        succeeded,
        failed,
        cancelled,
        members - succeeded - failed - cancelled,
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
