package dev.cascade.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A large run's sims folded into one line per config, for {@code cascade runs watch} and {@code
 * cascade run}: a line per sim stops being readable at a few dozen.
 *
 * <pre>
 * SM90_H100  [######....] 192/320 kernels  64 sims: 3 running, 58 succeeded, 3 pending, done in ~2m
 * </pre>
 */
final class ConfigFold {

  /** Runs of more sims than this are folded. */
  static final int FOLD_ABOVE = 16;

  /** The order states are counted in: from waiting to finished. */
  private static final List<String> ORDER =
      List.of("pending", "launching", "running", "lost", "succeeded", "failed", "cancelled");

  private ConfigFold() {}

  static boolean folds(int sims) {
    return sims > FOLD_ABOVE;
  }

  /** The sims by config, in the order the configs first appear. */
  static Map<String, List<WatchedSim>> byConfig(Collection<WatchedSim> sims) {
    Map<String, List<WatchedSim>> groups = new LinkedHashMap<>();
    for (WatchedSim sim : sims) {
      groups.computeIfAbsent(sim.config, c -> new ArrayList<>()).add(sim);
    }
    return groups;
  }

  /** One line per config, the config names padded to {@code configWidth}. */
  static List<String> lines(Collection<WatchedSim> sims, int configWidth, Instant now) {
    List<String> lines = new ArrayList<>();
    byConfig(sims).forEach((config, group) -> lines.add(line(config, group, configWidth, now)));
    return lines;
  }

  /** The line of one config's sims. */
  static String line(String config, List<WatchedSim> sims, int configWidth, Instant now) {
    int done = 0;
    int total = 0;
    Instant eta = null;
    boolean unfinished = false;
    for (WatchedSim sim : sims) {
      done += sim.done;
      total += sim.total;
      if (!sim.finished()) {
        unfinished = true;
        Instant simEta = sim.schedule == null ? null : sim.schedule.eta();
        if (simEta != null && (eta == null || simEta.isAfter(eta))) {
          eta = simEta;
        }
      }
    }
    StringBuilder line = new StringBuilder();
    line.append(String.format(Locale.ROOT, "%-" + Math.max(1, configWidth) + "s", config));
    line.append("  ").append(Formats.bar(done, total, WatchedSim.BAR_WIDTH)).append(" kernels  ");
    line.append(Printed.count(sims.size(), "sim")).append(": ").append(countsText(sims));
    if (unfinished && eta != null) {
      // The config is done when its last sim is: the latest estimate of those still going.
      line.append(
          eta.isAfter(now)
              ? ", done in ~" + Formats.duration(Duration.between(now, eta))
              : ", done any moment");
    }
    return line.toString();
  }

  /** {@code 3 running, 58 succeeded}: counts by state in {@link #ORDER}, zeros left out. */
  static String countsText(List<WatchedSim> sims) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    ORDER.forEach(state -> counts.put(state, 0));
    for (WatchedSim sim : sims) {
      counts.merge(sim.state, 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach(
        (state, n) -> {
          if (n > 0) {
            parts.add(n + " " + state);
          }
        });
    return String.join(", ", parts);
  }

  /**
   * What changes a config's line in a log (not the estimate, which moves every second): its counts
   * by state and each tenth of its kernels done.
   */
  static String key(List<WatchedSim> sims) {
    int done = 0;
    int total = 0;
    for (WatchedSim sim : sims) {
      done += sim.done;
      total += sim.total;
    }
    return countsText(sims) + "/" + (total == 0 ? 0 : done * 10L / total);
  }

  /**
   * The errors of a config's sims, each once with how many sims it ended: {@code 64 failed:
   * deadlock detected ...}. A run of hundreds of sims failing the same way says it in one line.
   */
  static List<String> errors(List<WatchedSim> sims, int width) {
    Map<String, Integer> byError = new LinkedHashMap<>();
    for (WatchedSim sim : sims) {
      if (sim.error != null) {
        byError.merge(sim.state + ": " + Formats.shorten(sim.error, width), 1, Integer::sum);
      }
    }
    List<String> lines = new ArrayList<>();
    byError.forEach((error, n) -> lines.add(Printed.count(n, "sim") + " " + error));
    return lines;
  }
}
