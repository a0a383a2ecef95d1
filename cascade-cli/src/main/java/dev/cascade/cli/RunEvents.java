package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Follows {@code GET /api/runs/{id}/events} on a thread of its own and hands what happens to a
 * queue: each server-sent event, a dropped stream (then it reconnects with {@code Last-Event-ID},
 * so nothing is missed or repeated), a reconnection, or a refusal that reconnecting cannot fix (the
 * run is gone, the token is refused).
 */
final class RunEvents implements AutoCloseable {

  /** What the follower reports. */
  sealed interface Signal permits Event, Dropped, Connected, Refused {}

  /**
   * One event: its id, kind ({@code sim}, {@code kernel}, {@code log}) and the envelope {@code
   * {event_id, run_id, sim_id, kind, at, data}}.
   */
  record Event(String id, String kind, JsonNode envelope) implements Signal {}

  /** The stream ended or could not be opened; the follower tries again after a pause. */
  record Dropped(String reason) implements Signal {}

  /** The stream is open (again) and resumes after the last event seen. */
  record Connected(boolean resumed) implements Signal {}

  /** The server refused the stream in a way reconnecting will not fix. */
  record Refused(ApiClient.ApiException error) implements Signal {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration MAX_PAUSE = Duration.ofSeconds(10);

  private final ApiClient client;
  private final String path;
  private final BlockingQueue<Signal> sink;
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile InputStream open;
  private volatile String lastEventId;
  private Thread thread;

  /** The pause before reconnecting; the server's {@code retry:} field changes it. */
  private volatile Duration pause = Duration.ofSeconds(2);

  RunEvents(ApiClient client, String runId, BlockingQueue<Signal> sink) {
    this.client = client;
    this.path = "/api/runs/" + runId + "/events";
    this.sink = sink;
  }

  /** Starts following; events from the run's first one. */
  RunEvents start() {
    thread = Thread.ofVirtual().name("cascade-events" + path).start(this::follow);
    return this;
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
    if (thread != null) {
      thread.interrupt();
    }
  }

  private boolean isClosed() {
    return closed.getCount() == 0;
  }

  private void follow() {
    int failures = 0;
    boolean connectedBefore = false;
    while (!isClosed()) {
      String reason;
      try (InputStream stream = client.events(path, lastEventId)) {
        open = stream;
        if (isClosed()) {
          return;
        }
        failures = 0;
        sink.put(new Connected(connectedBefore));
        connectedBefore = true;
        read(stream);
        reason = "the server ended the event stream";
      } catch (ApiClient.ApiException e) {
        if (e.status() >= 400 && e.status() < 500) {
          offer(new Refused(e));
          return;
        }
        reason = e.getMessage();
      } catch (IOException e) {
        reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      } catch (InterruptedException e) {
        return;
      } finally {
        open = null;
      }
      if (isClosed()) {
        return;
      }
      failures++;
      offer(new Dropped(reason));
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
  private void read(InputStream stream) throws IOException, InterruptedException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    String id = null;
    String kind = null;
    StringBuilder data = new StringBuilder();
    boolean hasData = false;
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.isEmpty()) {
        if (hasData) {
          dispatch(id, kind, data.toString());
        }
        if (id != null) {
          lastEventId = id;
        }
        id = null;
        kind = null;
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
        case "id" -> id = value.isEmpty() ? null : value;
        case "event" -> kind = value;
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
          // a field this client does not use
        }
      }
    }
  }

  private void dispatch(String id, String kind, String data) throws InterruptedException {
    JsonNode envelope;
    try {
      envelope = JSON.readTree(data);
    } catch (IOException e) {
      return; // not an event of ours: skip it rather than stop following
    }
    sink.put(
        new Event(id, kind == null ? envelope.path("kind").asText("message") : kind, envelope));
  }

  private void offer(Signal signal) {
    try {
      sink.put(signal);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
