package dev.cascade.core.internal.events;

import dev.cascade.core.SimEvent;
import java.util.List;

/** Where {@link EventLog} reads events from: the events table ({@code EventRepository}). */
interface EventRows {

  /** Up to {@code limit} events after {@code afterId}, in id order: of {@code runId}, or all. */
  List<SimEvent> after(String runId, long afterId, int limit);

  /** The newest event id; 0 when there are none. */
  long latestId();
}
