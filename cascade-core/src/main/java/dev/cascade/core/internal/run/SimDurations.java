package dev.cascade.core.internal.run;

import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How long earlier sims of one trace took, from their launch to their end, by GPU config: what an
 * estimated finish is made from. Only succeeded sims count; a failed one says nothing of a normal
 * run's length.
 */
final class SimDurations {

  /** How many of a trace's newest runs are read. */
  static final int RUNS_READ = 20;

  private final Map<String, List<Duration>> byConfig = new HashMap<>();
  private final List<Duration> all = new ArrayList<>();

  SimDurations(List<Run> runsOfTrace) {
    for (Run run : runsOfTrace) {
      for (Sim sim : run.sims()) {
        if (sim.state() == SimState.SUCCEEDED
            && sim.launchedAt() != null
            && sim.finishedAt() != null
            && sim.finishedAt().isAfter(sim.launchedAt())) {
          Duration took = Duration.between(sim.launchedAt(), sim.finishedAt());
          byConfig.computeIfAbsent(sim.gpuConfig(), c -> new ArrayList<>()).add(took);
          all.add(took);
        }
      }
    }
  }

  /** What a sim of {@code gpuConfig} is expected to take, and what says so; null when nothing. */
  Expected expected(String gpuConfig) {
    List<Duration> same = byConfig.getOrDefault(gpuConfig, List.of());
    if (!same.isEmpty()) {
      return new Expected(mean(same), true, count(same.size()) + " of this trace on " + gpuConfig);
    }
    if (!all.isEmpty()) {
      return new Expected(mean(all), false, count(all.size()) + " of this trace on other configs");
    }
    return null;
  }

  /**
   * @param sameConfig true when it comes from the same trace and config, false from other configs
   *     (then only its share of kernels still to do is used)
   */
  record Expected(Duration duration, boolean sameConfig, String basis) {}

  private static String count(int n) {
    return n == 1 ? "1 earlier sim" : n + " earlier sims";
  }

  private static Duration mean(List<Duration> durations) {
    Duration sum = Duration.ZERO;
    for (Duration duration : durations) {
      sum = sum.plus(duration);
    }
    return sum.dividedBy(durations.size());
  }
}
