package dev.cascade.core.internal.trace;

import dev.cascade.core.Trace;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers trace state changes to listeners, in order, on one daemon thread of its own, so a slow
 * listener never holds up the engine's decisions.
 */
final class TraceListeners implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TraceListeners.class);

  private final List<Consumer<Trace>> listeners = new CopyOnWriteArrayList<>();
  private final ExecutorService events;

  TraceListeners(String threadName) {
    this.events = Executors.newSingleThreadExecutor(DaemonThreads.named(threadName));
  }

  void add(Consumer<Trace> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  void remove(Consumer<Trace> listener) {
    listeners.remove(listener);
  }

  /** Hands {@code trace} to every listener, later, on the delivery thread. */
  void deliver(Trace trace) {
    if (listeners.isEmpty()) {
      return;
    }
    try {
      events.execute(
          () -> {
            for (Consumer<Trace> listener : listeners) {
              try {
                listener.accept(trace);
              } catch (RuntimeException e) {
                log.warn("a trace listener failed on trace \"{}\"", trace.id(), e);
              }
            }
          });
    } catch (RejectedExecutionException e) {
      log.debug("closing: trace \"{}\" change not delivered", trace.id());
    }
  }

  /** Delivers the changes already handed over, then stops. */
  @Override
  public void close() {
    events.shutdown();
    DaemonThreads.awaitTermination(events, "listener");
  }
}
