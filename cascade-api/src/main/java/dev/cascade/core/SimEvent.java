package dev.cascade.core;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One change of a sim, as clients follow it: ids grow with every event across the whole app and
 * survive restarts, so a client that saw event {@code n} resumes exactly after it.
 *
 * @param id the event's id, increasing
 * @param kind what changed
 * @param data the change as a JSON object (snake_case): for {@code sim}, the sim as {@code GET
 *     /api/runs/{id}} shows it; for {@code kernel}, one finished kernel's statistics; for {@code
 *     log}, {@code {"lines": [...]}}; for {@code action}, who did what to the run
 */
public record SimEvent(long id, String runId, String simId, Kind kind, Instant at, String data) {

  /** What an event is about. */
  public enum Kind {
    /** The sim's state or progress changed; {@code data} is the whole sim. */
    SIM,
    /** The sim finished a kernel; {@code data} is the kernel's statistics. */
    KERNEL,
    /** The sim printed lines; {@code data} holds the newest of them. */
    LOG,
    /**
     * Someone cancelled, retried or reran the run; {@code data} is the {@link RunAction} ({@code
     * {"action", "user", "at", "new_run_id"}}) and the event has no sim.
     */
    ACTION;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Kind fromWireName(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  public SimEvent {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(data, "data");
    if (id < 1) {
      throw new IllegalArgumentException("event ids start at 1; got " + id);
    }
  }
}
