package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.EventStream;
import dev.cascade.core.Runs;
import dev.cascade.core.SimEvent;
import dev.cascade.core.json.ApiJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/runs/{id}/events}: the run's sim events as server-sent events, past then live,
 * each with its id, so a client that reconnects with {@code Last-Event-ID} (or {@code ?after=})
 * resumes right after the last event it saw, with nothing missed or repeated.
 *
 * <p>Each client is one request thread (virtual) blocked on its own {@link EventStream}. Streams
 * that are caught up share one read of the events table per change (the event log's tail), so N
 * clients of a run cost one query per change, not N; a client replaying from an old id reads the
 * table a page at a time, so a slow client holds no more than a page. An idle stream gets a {@code
 * : keepalive} comment every keep-alive interval, so proxies keep it open and a client that went
 * away is noticed at the next write, which fails: the stream is then closed and the client gauge
 * goes down.
 */
final class EventStreamer {

  private static final Logger log = LoggerFactory.getLogger(EventStreamer.class);

  /** Events written before one flush, when many are ready at once (a replay). */
  private static final int BATCH = 256;

  private static final byte[] KEEPALIVE = ": keepalive\n\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PREAMBLE = "retry: 2000\n\n".getBytes(StandardCharsets.US_ASCII);

  private final Runs runs;
  private final Auth auth;
  private final MetricsRegistry metrics;
  private final Duration keepAlive;
  private final Set<EventStream> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  EventStreamer(Runs runs, Auth auth, MetricsRegistry metrics, Duration keepAlive) {
    this.runs = runs;
    this.auth = auth;
    this.metrics = metrics;
    this.keepAlive = keepAlive;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/runs/{id}/events", auth.viewer(this::stream));
  }

  /** Ends every open stream; the server is stopping. */
  void close() {
    closed = true;
    open.forEach(EventStream::close);
  }

  private void stream(Context ctx) throws IOException {
    String runId = ctx.pathParam("id");
    long after = resumeAfter(ctx);
    if (closed) {
      throw new CascadeException(ErrorCode.UNAVAILABLE, "the server is stopping", null);
    }
    try (EventStream events = runs.events(runId, after)) {
      open.add(events);
      metrics.sseOpened();
      try {
        HttpServletResponse res = ctx.res();
        res.setStatus(200);
        res.setContentType("text/event-stream; charset=utf-8");
        res.setHeader("Cache-Control", "no-cache");
        res.setHeader("X-Accel-Buffering", "no");
        OutputStream out = res.getOutputStream();
        out.write(PREAMBLE);
        out.flush();
        pump(events, out);
      } catch (IOException e) {
        log.debug("event stream of run {} ended: the client went away ({})", runId, e.toString());
      } catch (InterruptedException e) {
        log.debug("event stream of run {} interrupted", runId);
      } finally {
        open.remove(events);
        metrics.sseClosed();
      }
    }
  }

  private void pump(EventStream events, OutputStream out) throws IOException, InterruptedException {
    long keepAliveNanos = keepAlive.toNanos();
    long lastWrite = System.nanoTime();
    while (!closed) {
      long wait = keepAliveNanos - (System.nanoTime() - lastWrite);
      if (wait <= 0) {
        out.write(KEEPALIVE);
        out.flush();
        lastWrite = System.nanoTime();
        continue;
      }
      Optional<SimEvent> event = events.next(Duration.ofNanos(wait));
      if (event.isEmpty()) {
        continue;
      }
      write(out, event.get());
      for (int i = 1; i < BATCH; i++) {
        Optional<SimEvent> more = events.next(Duration.ZERO);
        if (more.isEmpty()) {
          break;
        }
        write(out, more.get());
      }
      out.flush();
      lastWrite = System.nanoTime();
    }
  }

  private void write(OutputStream out, SimEvent event) throws IOException {
    out.write(frame(event));
    metrics.sseEvent();
  }

  /**
   * One event as the stream carries it: {@code id}, {@code event} (the kind) and one {@code data}
   * line holding {@code {"event_id", "run_id", "sim_id", "kind", "at", "data": {...}}}.
   */
  static byte[] frame(SimEvent event) {
    String data = ApiJson.writeEvent(event);
    StringBuilder frame = new StringBuilder(data.length() + 48);
    frame.append("id: ").append(event.id()).append('\n');
    frame.append("event: ").append(event.kind().wireName()).append('\n');
    // JSON text needs no line breaks; any inside the stored data become extra data lines.
    for (String line : data.split("\r\n|\r|\n", -1)) {
      frame.append("data: ").append(line).append('\n');
    }
    frame.append('\n');
    return frame.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The id to resume after: {@code Last-Event-ID}, else {@code ?after=}, else 0 (from the start).
   */
  private static long resumeAfter(Context ctx) {
    String header = ctx.header("Last-Event-ID");
    if (header != null && !header.isBlank()) {
      return eventId(header.strip(), "Last-Event-ID");
    }
    String query = ctx.queryParam("after");
    if (query != null && !query.isBlank()) {
      return eventId(query.strip(), "after");
    }
    return 0;
  }

  private static long eventId(String text, String field) {
    if (text.length() > 18 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new CascadeException(
          ErrorCode.INVALID,
          field
              + " must be an event id (a whole number from 0) as the stream sent it; got \""
              + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
              + "\"",
          field);
    }
    return Long.parseLong(text);
  }
}
