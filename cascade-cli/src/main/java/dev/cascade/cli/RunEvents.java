package dev.cascade.cli;

import dev.cascade.client.CascadeClient;
import dev.cascade.core.CascadeException;
import dev.cascade.core.EventStream;
import dev.cascade.core.SimEvent;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;

/**
 * Follows a run's events (the client's {@link EventStream}, which reconnects with {@code
 * Last-Event-ID} when dropped, so nothing is missed or repeated) on a thread of its own and hands
 * what happens to a queue: each event, a dropped stream, a reconnection, or a refusal that
 * reconnecting cannot fix (the run is gone, the token is refused).
 */
final class RunEvents implements AutoCloseable {

  /** What the follower reports. */
  sealed interface Signal permits Event, Dropped, Connected, Refused {}

  /** One event of the run. */
  record Event(SimEvent event) implements Signal {}

  /** The stream ended or could not be opened; it is opened again after a pause. */
  record Dropped(String reason) implements Signal {}

  /** The stream is open (again) and resumes after the last event seen. */
  record Connected(boolean resumed) implements Signal {}

  /** The server refused the stream in a way reconnecting will not fix. */
  record Refused(CascadeException error) implements Signal {}

  private final CascadeClient client;
  private final String runId;
  private final BlockingQueue<Signal> sink;
  private EventStream stream;
  private Thread thread;

  RunEvents(CascadeClient client, String runId, BlockingQueue<Signal> sink) {
    this.client = client;
    this.runId = runId;
    this.sink = sink;
  }

  /** Starts following; events from the run's first one. */
  RunEvents start() {
    stream =
        client.events(
            runId,
            0,
            new CascadeClient.StreamListener() {
              @Override
              public void connected(boolean resumed) {
                sink.add(new Connected(resumed));
              }

              @Override
              public void dropped(String reason) {
                sink.add(new Dropped(reason));
              }
            });
    thread = Thread.ofVirtual().name("cascade-events " + runId).start(this::pump);
    return this;
  }

  @Override
  public void close() {
    if (stream != null) {
      stream.close();
    }
    if (thread != null) {
      thread.interrupt();
    }
  }

  private void pump() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Optional<SimEvent> event = stream.next(Duration.ofSeconds(1));
        event.ifPresent(e -> sink.add(new Event(e)));
      }
    } catch (CascadeException e) {
      sink.add(new Refused(e));
    } catch (InterruptedException e) {
      // closed
    }
  }
}
