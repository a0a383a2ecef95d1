package dev.cascade.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Chunks from many sims at once, for the "no chunk lost" check: every sim sends {@code
 * chunksPerSim} chunks, in order, one at a time (its next chunk only after the previous one was
 * acknowledged, or again after a refusal), round robin over the sims, with at most {@code
 * maxInFlight} requests open. It stops sending at {@code cap} and waits for the answers still due.
 * It keeps, per sim, how many chunks were acknowledged (seqs 0 to n-1) and their bytes. After each
 * acknowledged chunk the sim sends a heartbeat ({@code "chunks": n}), as the agent does, before its
 * next chunk; their round trips are the heartbeat latency under the flood.
 */
final class ChunkFlood {

  /**
   * What was sent and acknowledged.
   *
   * @param acked per sim, the chunks acknowledged (2xx): seqs 0 to {@code acked[i] - 1}
   * @param ackedBytes per sim, the bytes of those chunks
   * @param unanswered requests still open when the drain cap passed
   * @param capped true when the time cap stopped it before every chunk was acknowledged
   * @param heartbeats round trips of the heartbeats answered 2xx
   */
  record Result(
      Latencies heartbeats,
      long sent,
      Refusals refused,
      long[] acked,
      long[] ackedBytes,
      long unanswered,
      boolean capped,
      double seconds) {

    long ackedTotal() {
      long total = 0;
      for (long n : acked) {
        total += n;
      }
      return total;
    }

    int simsReached() {
      int reached = 0;
      for (long n : acked) {
        reached += n > 0 ? 1 : 0;
      }
      return reached;
    }
  }

  private final String baseUrl;
  private final List<SimRef> sims;
  private final List<byte[]> bodies;
  private final int chunksPerSim;
  private final int maxInFlight;
  private final long[] acked;
  private final long[] ackedBytes;
  private final ArrayDeque<Integer> ready = new ArrayDeque<>();
  private final CountDownLatch done = new CountDownLatch(1);
  private final EventLoop events = new EventLoop("flood-loop");
  private final ScheduledExecutorService loop = events.executor;
  private final HttpClient http = events.http;
  private long sent;
  private final Latencies heartbeats = new Latencies();
  private final Refusals refused = new Refusals();
  private int inFlight;
  private long capAt;
  private long drainEnd;

  private ChunkFlood(String baseUrl, List<SimRef> sims, List<byte[]> bodies, int perSim, int max) {
    this.baseUrl = baseUrl;
    this.sims = List.copyOf(sims);
    this.bodies = List.copyOf(bodies);
    this.chunksPerSim = perSim;
    this.maxInFlight = max;
    this.acked = new long[sims.size()];
    this.ackedBytes = new long[sims.size()];
  }

  static Result run(
      String baseUrl,
      List<SimRef> sims,
      List<byte[]> bodies,
      int chunksPerSim,
      int maxInFlight,
      Duration cap,
      Duration drainCap)
      throws InterruptedException {
    return new ChunkFlood(baseUrl, sims, bodies, chunksPerSim, maxInFlight).run(cap, drainCap);
  }

  private Result run(Duration cap, Duration drainCap) throws InterruptedException {
    long start;
    try (events) {
      start = events.runUntil(done, begun -> begin(begun, cap, drainCap));
    }
    return new Result(
        heartbeats,
        sent,
        refused,
        acked.clone(),
        ackedBytes.clone(),
        inFlight,
        !ready.isEmpty() || inFlight > 0,
        (System.nanoTime() - start) / 1e9);
  }

  /** On the loop: sets the clock from {@code start}, then sends until the cap. */
  private void begin(long start, Duration cap, Duration drainCap) {
    capAt = start + cap.toNanos();
    drainEnd = capAt + drainCap.toNanos();
    for (int i = 0; i < sims.size(); i++) {
      ready.add(i);
    }
    fill();
    loop.scheduleWithFixedDelay(this::check, 10, 10, TimeUnit.MILLISECONDS);
  }

  private void check() {
    long now = System.nanoTime();
    if (now < capAt) {
      fill();
    }
    boolean finished = ready.isEmpty() && inFlight == 0;
    if (finished || (now >= capAt && inFlight == 0) || now >= drainEnd) {
      done.countDown();
    }
  }

  private void fill() {
    while (inFlight < maxInFlight && !ready.isEmpty() && System.nanoTime() < capAt) {
      send(ready.poll());
    }
  }

  /** The sim's heartbeat after a chunk; then its next chunk, if it has one. */
  private void heartbeat(int index) {
    SimRef sim = sims.get(index);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + "/api/sims/" + sim.id() + "/heartbeat"))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", sim.authorization())
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"state\":\"running\",\"chunks\":" + acked[index] + "}"))
            .build();
    inFlight++;
    long started = System.nanoTime();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenCompleteAsync(
            (response, error) -> {
              inFlight--;
              if (refused.ok(response, error)) {
                heartbeats.add(System.nanoTime() - started);
              }
              if (acked[index] < chunksPerSim) {
                ready.add(index);
              }
              fill();
            },
            loop);
  }

  private void send(int index) {
    SimRef sim = sims.get(index);
    long seq = acked[index];
    byte[] body = bodies.get((int) (seq % bodies.size()));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + "/api/sims/" + sim.id() + "/chunks/" + seq))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", sim.authorization())
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    sent++;
    inFlight++;
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenCompleteAsync(
            (response, error) -> {
              inFlight--;
              if (refused.ok(response, error)) {
                acked[index]++;
                ackedBytes[index] += body.length;
                heartbeat(index);
              } else {
                ready.add(index); // the same seq again: chunks are idempotent
              }
              fill();
            },
            loop);
  }
}
