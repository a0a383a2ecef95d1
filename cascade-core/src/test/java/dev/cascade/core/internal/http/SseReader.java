package dev.cascade.core.internal.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Follows a server-sent event stream with the JDK client ({@code BodyHandlers.ofLines()}) on a
 * thread of its own, collecting events and comments. {@link #close()} makes that thread close the
 * stream at the next line it reads (the server's keep-alive comments guarantee there is one), which
 * drops the connection as a browser tab closing would.
 */
final class SseReader implements AutoCloseable {

  /** One event as received. */
  record Event(long id, String kind, String data) {}

  final List<Event> events = new CopyOnWriteArrayList<>();
  final List<String> comments = new CopyOnWriteArrayList<>();
  final HttpResponse<Stream<String>> response;
  private final Thread reader;
  private volatile boolean stop;
  private volatile boolean ended;

  private SseReader(HttpResponse<Stream<String>> response) {
    this.response = response;
    this.reader = Thread.ofVirtual().name("sse-reader").start(this::read);
  }

  static SseReader open(HttpClient http, URI uri, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).GET().header("Accept", "text/event-stream");
    if (headers.length > 0) {
      request.headers(headers);
    }
    try {
      return new SseReader(http.send(request.build(), BodyHandlers.ofLines()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    events.forEach(event -> ids.add(event.id()));
    return ids;
  }

  boolean ended() {
    return ended;
  }

  private void read() {
    try (Stream<String> lines = response.body()) {
      Iterator<String> it = lines.iterator();
      Long id = null;
      String kind = null;
      StringBuilder data = null;
      while (!stop && it.hasNext()) {
        String line = it.next();
        if (line.isEmpty()) {
          if (data != null && id != null) {
            events.add(new Event(id, kind, data.toString()));
          }
          id = null;
          kind = null;
          data = null;
        } else if (line.startsWith(":")) {
          comments.add(line);
        } else if (line.startsWith("id: ")) {
          id = Long.parseLong(line.substring(4));
        } else if (line.startsWith("event: ")) {
          kind = line.substring(7);
        } else if (line.startsWith("data: ")) {
          data = data == null ? new StringBuilder() : data.append('\n');
          data.append(line.substring(6));
        }
      }
    } catch (RuntimeException e) {
      // The connection ended under us.
    } finally {
      ended = true;
    }
  }

  /** Drops the connection and waits for the reader to end. */
  @Override
  public void close() {
    stop = true;
    try {
      reader.join(Duration.ofSeconds(20));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
