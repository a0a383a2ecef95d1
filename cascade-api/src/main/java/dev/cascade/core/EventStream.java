package dev.cascade.core;

import java.time.Duration;
import java.util.Optional;

/**
 * The events of one run (or of all runs) after a given id, in id order, without gaps or repeats,
 * past and live alike. Close it when done. Not for use by several threads at once.
 */
public interface EventStream extends AutoCloseable {

  /** The next event, waiting up to {@code timeout}; empty when none came in time or closed. */
  Optional<SimEvent> next(Duration timeout) throws InterruptedException;

  /** The id of the last event returned, or the id the stream started after. */
  long lastId();

  @Override
  void close();
}
