package dev.cascade.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.CascadeException;
import dev.cascade.core.EventStream;
import dev.cascade.core.SimEvent;
import dev.cascade.core.json.ApiJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A run's events over {@code GET /api/runs/{id}/events}, read on a virtual thread of its own into a
 * queue. When the stream drops it reconnects with {@code Last-Event-ID} of the last event it read,
 * so nothing is missed or repeated; a refusal reconnecting cannot fix (a 4xx: the run is gone, the
 * token refused) ends the stream, and {@link #next} throws it.
 */
final class SseEvents implements EventStream {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration MAX_PAUSE = Duration.ofSeconds(10);

  /** What the reader hands over: an event, or the refusal that ended the stream. */
  private sealed interface Item permits Event, Ended {}

  private record Event(SimEvent event) implements Item {}

  private record Ended(CascadeException error) implements Item {}

  private final Http http;
  private final String path;
  private final CascadeClient.StreamListener listener;
  private final BlockingQueue<Item> items = new LinkedBlockingQueue<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread reader;
  private volatile InputStream open;
  private volatile long readId;
  private long lastId;
  private boolean ended;

  /** The pause before reconnecting; the server's {@code retry:} field changes it. */
  private volatile Duration pause = Duration.ofSeconds(2);

  SseEvents(Http http, String runId, long afterId, CascadeClient.StreamListener listener) {
    this.http = http;
    this.path = "/api/runs/" + Http.segment(runId) + "/events";
    this.listener = listener;
    this.readId = afterId;
    this.lastId = afterId;
    this.reader = Thread.ofVirtual().name("cascade-events " + runId).start(this::follow);
  }

  @Override
  public Optional<SimEvent> next(Duration timeout) throws InterruptedException {
    if (ended) {
      return Optional.empty();
    }
    Item item = items.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
    return switch (item) {
      case null -> Optional.empty();
      case Event event -> {
        lastId = event.event().id();
        yield Optional.of(event.event());
      }
      case Ended end -> {
        ended = true;
        throw end.error();
      }
    };
  }

  @Override
  public long lastId() {
    return lastId;
  }

  @Override
  public void close() {
    closed.countDown();
    InputStream stream = open;
    if (stream != null) {
      try {
        stream.close();
      } catch (IOException e) {
        // closing to stop reading: nothing more to do
      }
    }
    reader.interrupt();
  }

  private boolean isClosed() {
    return closed.getCount() == 0;
  }

  private void follow() {
    int failures = 0;
    boolean connectedBefore = false;
    while (!isClosed()) {
      String reason;
      try (InputStream stream = http.events(path, readId)) {
        open = stream;
        if (isClosed()) {
          return;
        }
        failures = 0;
        listener.connected(connectedBefore);
        connectedBefore = true;
        read(stream);
        reason = "the server ended the event stream";
      } catch (CascadeException e) {
        if (e.code().httpStatus() >= 400 && e.code().httpStatus() < 500) {
          items.add(new Ended(e));
          return;
        }
        reason = e.getMessage();
      } catch (IOException e) {
        reason = e.getMessage() == null ? "the connection closed" : e.getMessage();
      } finally {
        open = null;
      }
      if (isClosed()) {
        return;
      }
      failures++;
      listener.dropped(reason);
      long pauseMillis = Math.min(MAX_PAUSE.toMillis(), pause.toMillis() * Math.min(failures, 5));
      try {
        if (closed.await(pauseMillis, TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Reads the stream as the server-sent events format says, until it ends. */
  private void read(InputStream stream) throws IOException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    StringBuilder data = new StringBuilder();
    boolean hasData = false;
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.isEmpty()) {
        if (hasData) {
          dispatch(data.toString());
        }
        data.setLength(0);
        hasData = false;
        continue;
      }
      if (line.startsWith(":")) {
        continue; // a comment: keep-alive
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "data" -> {
          if (hasData) {
            data.append('\n');
          }
          data.append(value);
          hasData = true;
        }
        case "retry" -> {
          if (!value.isEmpty()
              && value.length() < 9
              && value.chars().allMatch(Character::isDigit)) {
            pause = Duration.ofMillis(Math.max(100, Long.parseLong(value)));
          }
        }
        default -> {
          // id and event repeat what the data line says; other fields are not used
        }
      }
    }
  }

  private void dispatch(String data) {
    SimEvent event;
    try {
      event = ApiJson.readEvent(JSON.readTree(data));
    } catch (IOException | IllegalArgumentException e) {
      return; // not an event of ours: skip it rather than stop following
    }
    if (event.id() > readId) {
      readId = event.id();
      items.add(new Event(event));
    }
  }
}
