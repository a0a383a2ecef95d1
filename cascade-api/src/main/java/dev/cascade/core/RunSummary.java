package dev.cascade.core;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A run as the runs list shows it ({@code GET /api/runs}): who, what, and how far, counted over its
 * sims' latest attempts, without the sims themselves.
 *
 * @param id the run's id
 * @param traceId its trace
 * @param state derived from its sims' latest attempts
 * @param createdAt when it was created
 * @param owner whose run
 * @param priority its priority in the queue
 * @param entries what was asked for
 * @param simCount its sims, one per config and replica (earlier attempts not counted)
 * @param simsByState how many of them are in each state that has any, in {@link SimState} order
 * @param kernelsDone kernels they have finished
 * @param kernelsTotal kernels they are to simulate
 * @param configs per entry, in entry order, its sims by state and kernels
 */
public record RunSummary(
    String id,
    String traceId,
    RunState state,
    Instant createdAt,
    String owner,
    int priority,
    List<RunEntry> entries,
    int simCount,
    Map<SimState, Integer> simsByState,
    long kernelsDone,
    long kernelsTotal,
    List<RunConfigProgress> configs) {

  public RunSummary {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(state, "state");
    entries = List.copyOf(entries);
    simsByState = copyCounts(simsByState);
    configs = List.copyOf(configs);
  }

  /** The summary of {@code run}: what the server lists for it. */
  public static RunSummary of(Run run) {
    List<Sim> latest = run.latestAttempts();
    List<RunConfigProgress> configs =
        run.entries().stream()
            .map(
                entry -> {
                  List<Sim> sims =
                      latest.stream().filter(sim -> sim.gpuConfig().equals(entry.name())).toList();
                  return new RunConfigProgress(
                      entry.name(),
                      entry.count(),
                      countByState(sims),
                      kernelsDone(sims),
                      kernelsTotal(sims));
                })
            .toList();
    return new RunSummary(
        run.id(),
        run.traceId(),
        run.state(),
        run.createdAt(),
        run.owner(),
        run.priority(),
        run.entries(),
        latest.size(),
        countByState(latest),
        kernelsDone(latest),
        kernelsTotal(latest),
        configs);
  }

  /** Counts in {@link SimState} order, without the states no sim is in; unmodifiable. */
  static Map<SimState, Integer> copyCounts(Map<SimState, Integer> counts) {
    Map<SimState, Integer> copy = new EnumMap<>(SimState.class);
    counts.forEach(
        (state, count) -> {
          if (count > 0) {
            copy.put(Objects.requireNonNull(state, "state"), count);
          }
        });
    return Collections.unmodifiableMap(copy);
  }

  private static Map<SimState, Integer> countByState(List<Sim> sims) {
    Map<SimState, Integer> counts = new EnumMap<>(SimState.class);
    sims.forEach(sim -> counts.merge(sim.state(), 1, Integer::sum));
    return counts;
  }

  private static long kernelsDone(List<Sim> sims) {
    return sims.stream().mapToLong(sim -> sim.progress().kernelsDone()).sum();
  }

  private static long kernelsTotal(List<Sim> sims) {
    return sims.stream().mapToLong(sim -> sim.progress().kernelsTotal()).sum();
  }
}
