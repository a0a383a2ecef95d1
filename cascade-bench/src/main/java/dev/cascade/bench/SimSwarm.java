package dev.cascade.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Many emulated sims on one event loop, each doing what {@code cascade sim-agent} does for one sim:
 * a heartbeat ({@code "chunks": n}) at once and then {@code heartbeatInterval} after the previous
 * one was answered, one at a time; a chunk of output every {@code chunkInterval}, sent in order,
 * one at a time, retried after 250 ms when refused. Unlike {@code EmulatorFleet}, which runs every
 * sim to its end (unbounded when the app cannot keep up), it runs for a fixed window and then only
 * waits, up to {@code drainCap}, for the answers still due: every heartbeat sent in the window is
 * timed, the slow ones included.
 */
final class SimSwarm {

  /**
   * What the swarm saw.
   *
   * @param heartbeats heartbeats answered 2xx; {@code latencies} holds their round trips
   * @param heartbeatsUnanswered heartbeats still unanswered when the drain cap passed
   * @param chunks chunks answered 2xx
   * @param chunksProduced chunks the sims produced in the window
   * @param refused requests answered with another status or not at all, and why
   */
  record Result(
      int sims,
      long heartbeats,
      long heartbeatsUnanswered,
      long chunks,
      long chunksProduced,
      Refusals refused,
      double windowSeconds,
      double drainSeconds,
      Latencies latencies) {}

  private final String baseUrl;
  private final List<byte[]> chunkBodies;
  private final long heartbeatNanos;
  private final long chunkNanos;
  private final List<Member> members = new ArrayList<>();
  private final Latencies latencies = new Latencies();
  private final EventLoop events = new EventLoop("swarm-loop");
  private final ScheduledExecutorService loop = events.executor;
  private final HttpClient http = events.http;
  private long windowEnd;
  private long drainEnd;
  private long heartbeats;
  private long chunks;
  private final Refusals refused = new Refusals();
  private int inFlight;
  private long drainStart;
  private final CountDownLatch done = new CountDownLatch(1);

  private SimSwarm(
      String baseUrl, List<SimRef> sims, List<byte[]> chunkBodies, Duration hb, Duration chunk) {
    this.baseUrl = baseUrl;
    this.chunkBodies = List.copyOf(chunkBodies);
    this.heartbeatNanos = hb.toNanos();
    this.chunkNanos = chunk.toNanos();
    for (SimRef sim : sims) {
      members.add(new Member(sim));
    }
  }

  static Result run(
      String baseUrl,
      List<SimRef> sims,
      List<byte[]> chunkBodies,
      Duration heartbeatInterval,
      Duration chunkInterval,
      Duration window,
      Duration drainCap)
      throws InterruptedException {
    return new SimSwarm(baseUrl, sims, chunkBodies, heartbeatInterval, chunkInterval)
        .run(window, drainCap);
  }

  private Result run(Duration window, Duration drainCap) throws InterruptedException {
    long start;
    try (events) {
      start = events.runUntil(done, begun -> begin(begun, window, drainCap));
    }
    long produced = 0;
    long unanswered = 0;
    for (Member member : members) {
      produced += member.produced;
      unanswered += member.heartbeatInFlight ? 1 : 0;
    }
    return new Result(
        members.size(),
        heartbeats,
        unanswered,
        chunks,
        produced,
        refused,
        window.toNanos() / 1e9,
        (System.nanoTime() - Math.max(drainStart, start)) / 1e9,
        latencies);
  }

  /** On the loop: spreads the sims' first heartbeats and chunks from {@code start}, then ticks. */
  private void begin(long start, Duration window, Duration drainCap) {
    windowEnd = start + window.toNanos();
    drainEnd = windowEnd + drainCap.toNanos();
    int n = members.size();
    for (int i = 0; i < n; i++) {
      Member member = members.get(i);
      // Spread over the intervals, as sims started at different times would be.
      member.nextHeartbeat = start + heartbeatNanos * i / n;
      member.nextChunk = start + chunkNanos * i / n;
    }
    loop.scheduleWithFixedDelay(this::tick, 0, 5, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    long now = System.nanoTime();
    boolean open = now < windowEnd;
    if (open) {
      for (Member member : members) {
        while (now >= member.nextChunk) {
          member.produced++;
          member.nextChunk += chunkNanos;
        }
        if (!member.heartbeatInFlight && now >= member.nextHeartbeat) {
          member.heartbeat(now);
        }
        if (!member.chunkInFlight && member.acked < member.produced && now >= member.retryAt) {
          member.chunk();
        }
      }
      return;
    }
    if (drainStart == 0) {
      drainStart = now;
    }
    if (inFlight == 0 || now >= drainEnd) {
      done.countDown();
    }
  }

  private HttpRequest.Builder request(Member member, String path) {
    return HttpRequest.newBuilder(URI.create(baseUrl + "/api/sims/" + member.sim.id() + path))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", member.sim.authorization());
  }

  /** One emulated sim; touched on the loop thread only. */
  private final class Member {
    final SimRef sim;
    long nextHeartbeat;
    long nextChunk;
    long produced;
    long acked;
    long retryAt;
    boolean heartbeatInFlight;
    boolean chunkInFlight;

    Member(SimRef sim) {
      this.sim = sim;
    }

    void heartbeat(long now) {
      heartbeatInFlight = true;
      inFlight++;
      String json = "{\"state\":\"running\",\"chunks\":" + produced + "}";
      HttpRequest request =
          request(this, "/heartbeat")
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
              .build();
      http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
          .whenCompleteAsync(
              (response, error) -> {
                long answered = System.nanoTime();
                heartbeatInFlight = false;
                inFlight--;
                if (refused.ok(response, error)) {
                  heartbeats++;
                  latencies.add(answered - now);
                }
                // The agent's heartbeat thread runs with a fixed delay after each heartbeat.
                nextHeartbeat = answered + heartbeatNanos;
              },
              loop);
    }

    void chunk() {
      chunkInFlight = true;
      inFlight++;
      long seq = acked;
      HttpRequest request =
          request(this, "/chunks/" + seq)
              .header("Content-Type", "application/octet-stream")
              .PUT(
                  HttpRequest.BodyPublishers.ofByteArray(
                      chunkBodies.get((int) (seq % chunkBodies.size()))))
              .build();
      http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
          .whenCompleteAsync(
              (response, error) -> {
                chunkInFlight = false;
                inFlight--;
                if (refused.ok(response, error)) {
                  chunks++;
                  acked++;
                } else {
                  retryAt = System.nanoTime() + Duration.ofMillis(250).toNanos();
                }
              },
              loop);
    }
  }
}
