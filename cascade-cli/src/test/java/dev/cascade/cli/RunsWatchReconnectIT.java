package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cascade.client.CascadeClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code cascade runs watch} when the event stream drops: a stand-in server sends two events and
 * closes the stream; the watcher must reconnect with {@code Last-Event-ID} of the last event it saw
 * and take the rest from there, without repeating anything.
 */
final class RunsWatchReconnectIT {

  private static final String RUN = "r_01JD3N8X5S2Q7W4K9M6T1V0BZC";
  private static final String SIM = "s_01JD3N8X5S2Q7W4K9M6T1V0BZD";

  private HttpServer server;
  private final List<String> lastEventIds = new CopyOnWriteArrayList<>();
  private final AtomicBoolean finished = new AtomicBoolean();
  private final CountDownLatch clientLeft = new CountDownLatch(1);

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/runs/" + RUN, this::run);
    server.createContext("/api/runs/" + RUN + "/events", this::events);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
  }

  @AfterEach
  void stop() {
    clientLeft.countDown();
    server.stop(0);
  }

  @Test
  void watch_droppedStream_resumesAfterTheLastEventAndFinishes() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String url = "http://127.0.0.1:" + server.getAddress().getPort();

    int exit =
        CliTestServer.commandLine(Map.of("CASCADE_URL", url), out, err)
            .execute("runs", "watch", RUN, "--plain");

    assertThat(exit).as(out + "\n" + err).isZero();
    assertThat(lastEventIds).containsExactly("(none)", "2");
    assertThat(out.toString())
        .contains("SM90_H100 #0  [..........] 0/2  pending    no heartbeat yet")
        .contains("SM90_H100 #0  [#####.....] 1/2  running    heartbeat 0.0s ago")
        .contains("(event stream dropped (the server ended the event stream); reconnecting)")
        .contains("(event stream reconnected)")
        .contains("SM90_H100 #0  [##########] 2/2  succeeded")
        .contains("Run " + RUN + " succeeded: 1 succeeded");
    assertThat(out.toString().lines().filter(line -> line.contains("1/2")).count()).isEqualTo(1);
  }

  @Test
  void watch_onATerminal_redrawsTheBlockInPlace() throws Exception {
    StringWriter out = new StringWriter();
    CascadeClient client =
        CascadeClient.connect(
            URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null);
    RunWatcher watcher = new RunWatcher(client, RUN, new PrintWriter(out, true), true);
    watcher.tick = Duration.ofMillis(50);

    int exit = watcher.watch();

    assertThat(exit).as(out.toString()).isZero();
    String text = out.toString();
    assertThat(text)
        .startsWith("Watching run " + RUN + " on trace demo: 1 sim (SM90_H100 x1)")
        .contains(
            "  0 of 1 sim finished\n  SM90_H100 #0  [..........] 0/2  pending    no heartbeat yet\n")
        .contains("\033[2F\033[J")
        .contains("  (event stream dropped (the server ended the event stream); reconnecting)\n")
        .contains("  1 of 1 sim finished\n  SM90_H100 #0  [##########] 2/2  succeeded\n")
        .endsWith(
            "Run "
                + RUN
                + " succeeded: 1 succeeded\n"
                + "Compare the configs with: cascade runs results "
                + RUN
                + "\n");
  }

  /** {@code GET /api/runs/{id}}: the sim pending, until the last event has been sent. */
  private void run(HttpExchange exchange) throws IOException {
    if (!exchange.getRequestURI().getPath().equals("/api/runs/" + RUN)) {
      send(
          exchange,
          404,
          "{\"error\": {\"code\": \"not_found\", \"message\": \"no\", \"field\": null}}");
      return;
    }
    boolean done = finished.get();
    send(
        exchange,
        200,
        "{\"id\": \""
            + RUN
            + "\", \"trace_id\": \"demo\", \"created_at\": \"2026-01-01T00:00:00Z\","
            + " \"state\": \""
            + (done ? "succeeded" : "active")
            + "\", \"entries\": [{\"gpu_config\": \"SM90_H100\", \"count\": 1}], \"sim_count\": 1,"
            + " \"sims\": ["
            + sim(
                done ? "succeeded" : "pending", done ? 2 : 0, done ? "2026-01-01T00:00:03Z" : null)
            + "]}");
  }

  /**
   * {@code GET .../events}: the first connection gets events 1 and 2 and is closed; the next gets
   * event 3 (the sim succeeded) and stays open until the client goes.
   */
  private void events(HttpExchange exchange) throws IOException {
    String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
    lastEventIds.add(lastEventId == null ? "(none)" : lastEventId);
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream body = exchange.getResponseBody()) {
      if (lastEventId == null) {
        body.write("retry: 100\n\n".getBytes(StandardCharsets.UTF_8));
        body.write(event(1, sim("running", 0, "2026-01-01T00:00:01Z"), "2026-01-01T00:00:01Z"));
        body.write(": keepalive\n\n".getBytes(StandardCharsets.UTF_8));
        body.write(event(2, sim("running", 1, "2026-01-01T00:00:02Z"), "2026-01-01T00:00:02Z"));
        body.flush();
        return; // the stream drops
      }
      finished.set(true);
      body.write(event(3, sim("succeeded", 2, "2026-01-01T00:00:03Z"), "2026-01-01T00:00:03Z"));
      body.flush();
      // Stay open as the real server does, until the watcher closes the stream or the test ends.
      try {
        clientLeft.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } catch (IOException e) {
      clientLeft.countDown();
    }
  }

  private static String sim(String state, int done, String lastHeartbeatAt) {
    return "{\"id\": \""
        + SIM
        + "\", \"run_id\": \""
        + RUN
        + "\", \"gpu_config\": \"SM90_H100\", \"replica\": 0,"
        + " \"created_at\": \"2026-01-01T00:00:00Z\", \"state\": \""
        + state
        + "\", \"error\": null, \"kernels_done\": "
        + done
        + ", \"kernels_total\": 2, \"current_kernel\": null, \"last_heartbeat_at\": "
        + (lastHeartbeatAt == null ? "null" : "\"" + lastHeartbeatAt + "\"")
        + ", \"heartbeat_age_s\": null}";
  }

  private static byte[] event(long id, String simJson, String at) {
    String data =
        "{\"event_id\":"
            + id
            + ",\"run_id\":\""
            + RUN
            + "\",\"sim_id\":\""
            + SIM
            + "\",\"kind\":\"sim\",\"at\":\""
            + at
            + "\",\"data\":"
            + simJson
            + "}";
    return ("id: " + id + "\nevent: sim\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
  }

  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(bytes);
    }
  }
}
