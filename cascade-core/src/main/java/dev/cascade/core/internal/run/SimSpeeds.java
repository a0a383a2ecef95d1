package dev.cascade.core.internal.run;

import dev.cascade.core.Provenance;
import dev.cascade.core.Run;
import dev.cascade.core.RunSpeed;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run's simulation speed next to earlier runs of the same trace and config, by simulator build
 * ({@link RunSpeed}). A sim's speed is the {@code gpgpu_simulation_rate} (inst/sec) of its last
 * finished kernel, as its {@code latest_metrics} keeps it: Accel-Sim's rate over the whole sim so
 * far, so a finished sim's last one is its final speed. Only succeeded sims that simulated count: a
 * failed sim stopped early, and a sim that reused results did not run.
 */
final class SimSpeeds {

  /** How many of a trace's newest runs are read for earlier sims. */
  static final int RUNS_READ = 50;

  /** The statistic in {@code latest_metrics}: simulated thread instructions per wall second. */
  static final String RATE_KEY = "gpgpu_simulation_rate";

  static final String UNKNOWN_BUILD = "unknown build";

  private SimSpeeds() {}

  /**
   * {@code run}'s speed against the sims of the other runs in {@code runsOfTrace} made before it.
   */
  static RunSpeed of(Run run, List<Run> runsOfTrace) {
    Map<Group, List<Sim>> ours = new LinkedHashMap<>();
    for (Sim sim : run.sims()) {
      ours.computeIfAbsent(Group.of(sim), g -> new ArrayList<>()).add(sim);
    }
    List<RunSpeed.Config> configs = new ArrayList<>();
    for (Map.Entry<Group, List<Sim>> entry : ours.entrySet()) {
      Group group = entry.getKey();
      List<Double> kips = new ArrayList<>();
      Set<String> simulators = new LinkedHashSet<>();
      for (Sim sim : entry.getValue()) {
        Double speed = kips(sim);
        if (speed != null) {
          kips.add(speed);
          simulators.add(simulator(sim.provenance()));
        }
      }
      Double median = kips.isEmpty() ? null : median(kips);
      configs.add(
          new RunSpeed.Config(
              group.gpuConfig,
              group.kernels,
              kips.size(),
              median,
              List.copyOf(simulators),
              earlier(run, group, runsOfTrace, median)));
    }
    return new RunSpeed(run.id(), run.traceId(), configs);
  }

  /** One row per build of the earlier sims of {@code group}, the build with the most sims first. */
  private static List<RunSpeed.Build> earlier(
      Run run, Group group, List<Run> runsOfTrace, Double ours) {
    Map<String, List<Double>> byBuild = new LinkedHashMap<>();
    for (Run other : runsOfTrace) {
      if (other.id().equals(run.id())
          || !other.traceId().equals(run.traceId())
          || !other.createdAt().isBefore(run.createdAt())) {
        continue;
      }
      for (Sim sim : other.sims()) {
        Double speed = kips(sim);
        if (speed != null && Group.of(sim).equals(group)) {
          byBuild.computeIfAbsent(simulator(sim.provenance()), b -> new ArrayList<>()).add(speed);
        }
      }
    }
    List<RunSpeed.Build> builds = new ArrayList<>();
    byBuild.forEach((simulator, kips) -> builds.add(build(simulator, kips, ours)));
    builds.sort(
        Comparator.comparingInt(RunSpeed.Build::sims)
            .reversed()
            .thenComparing(RunSpeed.Build::simulator));
    return builds;
  }

  private static RunSpeed.Build build(String simulator, List<Double> kips, Double ours) {
    double median = median(kips);
    double min = kips.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double max = kips.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    Double ratio = ours == null || median <= 0 ? null : ours / median;
    String verdict = null;
    if (ratio != null) {
      // Beyond the spread of the earlier sims, and by more than noise when they agree closely.
      verdict =
          ours < min && ratio < RunSpeed.SLOWER_BELOW
              ? RunSpeed.Build.SLOWER
              : ours > max && ratio > RunSpeed.FASTER_ABOVE
                  ? RunSpeed.Build.FASTER
                  : RunSpeed.Build.WITHIN_SPREAD;
    }
    return new RunSpeed.Build(simulator, kips.size(), median, min, max, ratio, verdict);
  }

  /** A succeeded sim's final speed in KIPS; null when it has none or did not simulate. */
  static Double kips(Sim sim) {
    if (sim.state() != SimState.SUCCEEDED || sim.provenance().reusedFrom() != null) {
      return null;
    }
    Number rate = sim.progress().latestMetrics().get(RATE_KEY);
    if (rate == null || !(rate.doubleValue() > 0) || Double.isInfinite(rate.doubleValue())) {
      return null;
    }
    return rate.doubleValue() / 1000;
  }

  /**
   * The simulator a sim's log named: {@code Accel-Sim [build accelsim-commit-...], GPGPU-Sim 4.2.0
   * [build gpgpu-sim_git-commit-...]}.
   */
  static String simulator(Provenance provenance) {
    List<String> parts = new ArrayList<>();
    if (provenance.accelSimBuild() != null) {
      parts.add(built("Accel-Sim", provenance.accelSimVersion(), provenance.accelSimBuild()));
    }
    if (provenance.gpgpuSimBuild() != null) {
      parts.add(built("GPGPU-Sim", provenance.gpgpuSimVersion(), provenance.gpgpuSimBuild()));
    }
    return parts.isEmpty() ? UNKNOWN_BUILD : String.join(", ", parts);
  }

  private static String built(String component, String version, String build) {
    return component + (version == null ? "" : " " + version) + " [build " + build + "]";
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** Sims whose speeds compare: the same config and kernel window. */
  private record Group(String gpuConfig, String kernels) {
    static Group of(Sim sim) {
      return new Group(sim.gpuConfig(), sim.kernels());
    }
  }
}
