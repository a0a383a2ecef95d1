package dev.cascade.core.internal.run;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The launched sims whose launcher says they still wait in its queue (a Slurm task {@code
 * PENDING}), with the launcher's reason. In memory only: after a restart the first status poll
 * finds them again. A queued sim cannot heartbeat, so its silence counts from when it was last seen
 * queued.
 */
public final class QueuedSims {

  /** {@code reason} is null once the sim left the queue. */
  private record Waiting(String reason, Instant seenAt) {}

  private final Map<String, Waiting> queued = new ConcurrentHashMap<>();

  /** Records that the sim was seen queued at {@code now}; true when its reason changed. */
  boolean mark(String simId, String reason, Instant now) {
    Waiting before = queued.put(simId, new Waiting(reason, now));
    return before == null || !reason.equals(before.reason());
  }

  /** The sim left the queue: its silence counts from when it was last seen queued. */
  void clear(String simId) {
    queued.computeIfPresent(simId, (id, waiting) -> new Waiting(null, waiting.seenAt()));
  }

  /** Forgets every sim not in {@code live}. */
  void retain(Set<String> live) {
    queued.keySet().retainAll(live);
  }

  public boolean isQueued(String simId) {
    return reason(simId).isPresent();
  }

  /** The launcher's reason the sim waits ({@code PENDING (Priority)}), while it does. */
  public Optional<String> reason(String simId) {
    return Optional.ofNullable(queued.get(simId)).map(Waiting::reason);
  }

  /** When the sim's silence starts: {@code since}, or later when it was seen queued after that. */
  Instant silenceStart(String simId, Instant since) {
    Waiting waiting = queued.get(simId);
    return waiting != null && waiting.seenAt().isAfter(since) ? waiting.seenAt() : since;
  }
}
