package dev.cascade.core;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One trace simulated on a list of GPU configs, a sim per replica. Its state is derived from its
 * sims every time it is read ({@link #state()}), never stored.
 *
 * @param owner whose run it is; waiting sims start round-robin across owners
 * @param priority higher starts first (default 0)
 */
public record Run(
    String id,
    String traceId,
    List<RunEntry> entries,
    Instant createdAt,
    List<Sim> sims,
    String owner,
    int priority) {

  public Run {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(owner, "owner");
    entries = List.copyOf(entries);
    sims = List.copyOf(sims);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("run " + id + " has no entries");
    }
  }

  /** A run of the default owner at priority 0. */
  public Run(String id, String traceId, List<RunEntry> entries, Instant createdAt, List<Sim> sims) {
    this(id, traceId, entries, createdAt, sims, RunOptions.DEFAULT_OWNER, 0);
  }

  /** The run's state, derived from the states of its sims' latest attempts. */
  public RunState state() {
    return RunState.of(latestAttempts().stream().map(Sim::state).toList());
  }

  /**
   * The latest attempt of each config and replica, in the order of {@link #sims()}: the sims that
   * count. {@link #sims()} also holds the earlier attempts a retry left behind.
   */
  public List<Sim> latestAttempts() {
    Map<String, Sim> latest = new LinkedHashMap<>();
    for (Sim sim : sims) {
      latest.merge(
          sim.gpuConfig() + "#" + sim.replica(),
          sim,
          (old, candidate) -> candidate.attempt() > old.attempt() ? candidate : old);
    }
    return List.copyOf(latest.values());
  }

  /** How many sims the entries ask for. */
  public int simCount() {
    return entries.stream().mapToInt(RunEntry::count).sum();
  }
}
