package dev.cascade.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The app's sim endpoints, faked with the JDK's HTTP server on 127.0.0.1: heartbeats and chunks as
 * DESIGN.md section 7 has them (a final heartbeat is answered with the missing chunks until all are
 * held). Its state survives {@link #stop()} and {@link #startOn(int)}, like the real app's across a
 * restart. Tests can make it lose chunks, answer 503, or cancel.
 */
final class FakeApp implements AutoCloseable {

  private static final Pattern PATH =
      Pattern.compile("/api/sims/([^/]+)/(heartbeat|chunks/(\\d+))");

  /** What the app knows about one sim. */
  static final class SimRecord {
    final String token;
    final Map<Long, byte[]> chunks = new ConcurrentHashMap<>();

    /** Each chunk's read-at stamp as the agent sent it (the first copy's), by seq. */
    final Map<Long, String> readAt = new ConcurrentHashMap<>();

    final List<Long> arrivals = new CopyOnWriteArrayList<>();
    final List<Map<String, Object>> heartbeats = new CopyOnWriteArrayList<>();
    final List<String> replies = new CopyOnWriteArrayList<>();
    final Set<Long> loseOnce = ConcurrentHashMap.newKeySet();
    volatile Map<String, Object> accepted;
    volatile boolean cancel;
    volatile long firstHeartbeatNanos;

    SimRecord(String token) {
      this.token = token;
    }

    /** The output held, chunks 0.. in order, up to the first gap. */
    byte[] output() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (long seq = 0; chunks.containsKey(seq); seq++) {
        out.writeBytes(chunks.get(seq));
      }
      return out.toByteArray();
    }

    String text() {
      return new String(output(), StandardCharsets.UTF_8);
    }

    /** The final heartbeat the app applied, once it has every chunk. */
    Optional<Map<String, Object>> accepted() {
      return Optional.ofNullable(accepted);
    }

    long runningHeartbeats() {
      return heartbeats.stream().filter(h -> "running".equals(h.get("state"))).count();
    }
  }

  private final Map<String, SimRecord> sims = new ConcurrentHashMap<>();
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private volatile boolean unavailable;
  private final AtomicInteger chunksToRefuse = new AtomicInteger();
  private final AtomicInteger refusedChunks = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger peakOpen = new AtomicInteger();
  private volatile long delayMillis;
  private volatile HttpServer server;
  private volatile int port;

  /** A fake app with one sim, {@code s_test} with token {@code token-1}, on a free port. */
  static FakeApp start() throws IOException {
    FakeApp app = new FakeApp();
    app.addSim("s_test", "token-1");
    app.startOn(0);
    return app;
  }

  /** A fake app with one sim that is not listening yet: {@link #startOn} it later. */
  static FakeApp notStarted() {
    FakeApp app = new FakeApp();
    app.addSim("s_test", "token-1");
    return app;
  }

  SimRecord addSim(String id, String token) {
    return sims.computeIfAbsent(id, i -> new SimRecord(token));
  }

  SimRecord sim() {
    return sims.get("s_test");
  }

  SimRecord sim(String id) {
    return sims.get(id);
  }

  /** Starts listening on {@code port} (0 picks one); the state is kept from before. */
  void startOn(int port) throws IOException {
    HttpServer started =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
    started.setExecutor(executor);
    started.createContext("/", this::handle);
    started.start();
    this.server = started;
    this.port = started.getAddress().getPort();
  }

  /** Stops listening, as an app that went down; the state is kept. */
  void stop() {
    HttpServer running = server;
    if (running != null) {
      running.stop(0);
      server = null;
    }
  }

  /** Holds every request this long before answering, as a busy app would. */
  void delay(long millis) {
    this.delayMillis = millis;
  }

  /** The most requests it held at once before answering. */
  int peakOpen() {
    return peakOpen.get();
  }

  /** Answers every request with 503 while true. */
  void unavailable(boolean unavailable) {
    this.unavailable = unavailable;
  }

  /**
   * Answers 503 to the next {@code count} chunk requests, whenever they come: a condition on what
   * the sender does, not a window of wall-clock time a loaded machine may send nothing in.
   */
  void refuseChunks(int count) {
    chunksToRefuse.set(count);
  }

  /** The chunk requests answered 503 by {@link #refuseChunks}. */
  int refusedChunks() {
    return refusedChunks.get();
  }

  int port() {
    return port;
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /**
   * The sim environment of DESIGN.md section 7, for {@code s_test}; its token: {@link #tokenIn}.
   */
  Map<String, String> environment() {
    return Map.of("CASCADE_MAIN_URL", url().toString(), "CASCADE_SIM_ID", "s_test");
  }

  /** What a launcher gives {@code s_test} on its standard input: its token on a line. */
  InputStream tokenIn() {
    return new java.io.ByteArrayInputStream(
        (sim().token + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public void close() {
    stop();
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    // Counted before any answer goes out, so no request counted here is over for its sender.
    peakOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
    try {
      if (delayMillis > 0) {
        Thread.sleep(delayMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      open.decrementAndGet();
    }
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      if (unavailable) {
        reply(exchange, 503, "{\"error\":{\"code\":\"unavailable\",\"message\":\"starting\"}}");
        return;
      }
      Matcher matcher = PATH.matcher(exchange.getRequestURI().getPath());
      if (!matcher.matches()) {
        reply(exchange, 404, "{\"error\":{\"code\":\"not_found\"}}");
        return;
      }
      SimRecord sim = sims.get(matcher.group(1));
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      if (authorization == null) {
        reply(exchange, 401, "{\"error\":{\"code\":\"unauthorized\"}}");
        return;
      }
      if (sim == null || !authorization.equals("Bearer " + sim.token)) {
        reply(exchange, 403, "{\"error\":{\"code\":\"forbidden\",\"message\":\"wrong token\"}}");
        return;
      }
      if (matcher.group(3) != null) {
        if (chunksToRefuse.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
          refusedChunks.incrementAndGet();
          reply(exchange, 503, "{\"error\":{\"code\":\"unavailable\",\"message\":\"busy\"}}");
          return;
        }
        String stamp = exchange.getRequestHeaders().getFirst(SimContract.CHUNK_READ_AT_HEADER);
        if (stamp != null) {
          sim.readAt.putIfAbsent(Long.parseLong(matcher.group(3)), stamp);
        }
        chunk(exchange, sim, Long.parseLong(matcher.group(3)), body);
      } else {
        heartbeat(exchange, sim, new String(body, StandardCharsets.UTF_8));
      }
    }
  }

  private static void chunk(HttpExchange exchange, SimRecord sim, long seq, byte[] body)
      throws IOException {
    if (!exchange.getRequestMethod().equals("PUT")) {
      reply(exchange, 405, "");
      return;
    }
    sim.arrivals.add(seq);
    if (!sim.loseOnce.remove(seq)) {
      sim.chunks.putIfAbsent(seq, body);
    }
    reply(exchange, 200, "{\"stored\":true}");
  }

  @SuppressWarnings("unchecked")
  private static void heartbeat(HttpExchange exchange, SimRecord sim, String body)
      throws IOException {
    Map<String, Object> heartbeat = (Map<String, Object>) AgentJson.parse(body);
    if (sim.firstHeartbeatNanos == 0) {
      sim.firstHeartbeatNanos = System.nanoTime();
    }
    sim.heartbeats.add(heartbeat);
    String state = (String) heartbeat.get("state");
    long chunks = (Long) heartbeat.get("chunks");
    String answer;
    if (sim.cancel) {
      answer = "{\"cancel\": true}";
    } else if (state.equals("running")) {
      answer = "{\"cancel\": false}";
    } else {
      List<Long> missing = new ArrayList<>();
      for (long seq = 0; seq < chunks; seq++) {
        if (!sim.chunks.containsKey(seq)) {
          missing.add(seq);
        }
      }
      if (missing.isEmpty()) {
        sim.accepted = heartbeat;
      }
      answer = "{ \"missing\" : " + missing + ", \"cancel\" : false }";
    }
    sim.replies.add(answer);
    reply(exchange, 200, answer);
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
