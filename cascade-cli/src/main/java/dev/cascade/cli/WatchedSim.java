package dev.cascade.cli;

import dev.cascade.core.Sim;
import dev.cascade.core.SimSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** What {@link RunWatcher} shows of one sim; it only moves forward (see {@link #take}). */
final class WatchedSim {

  static final int BAR_WIDTH = 10;
  private static final int ERROR_WIDTH = 60;

  final String id;
  String config = "";
  int replica;
  String state = "pending";
  int done;
  int total;
  String error;
  Instant lastHeartbeat;
  SimSchedule schedule;

  /** The simulator's speed so far, simulated thread instructions per second; null before any. */
  Double instructionsPerSecond;

  /** Wall-clock seconds the latest finished kernel took; null before any, or when unknown. */
  Double lastKernelSeconds;

  /** The most memory the sim's process tree held so far, in bytes; null where not measured. */
  Long peakMemoryBytes;

  private boolean known;
  private String printedKey;

  WatchedSim(String id) {
    this.id = id;
  }

  /**
   * Takes the sim's fields from {@code sim} unless they are older than what is shown: a lower
   * state, or fewer kernels in the same one. Returns whether it took them.
   */
  boolean take(Sim sim) {
    String newState = sim.state().wireName();
    int newDone = sim.progress().kernelsDone();
    int rank = rank(newState);
    if (known && (rank < rank(state) || rank == rank(state) && newDone < done)) {
      return false;
    }
    if (known && finished() && !newState.equals(state)) {
      return false;
    }
    known = true;
    config = sim.gpuConfig();
    replica = sim.replica();
    state = newState;
    done = newDone;
    total = sim.progress().kernelsTotal();
    Number rate = sim.progress().latestMetrics().get("gpgpu_simulation_rate");
    if (rate != null) {
      instructionsPerSecond = rate.doubleValue();
    }
    Number wall = sim.progress().latestMetrics().get("wall_time_s");
    if (wall != null) {
      lastKernelSeconds = wall.doubleValue();
    }
    if (sim.peakMemoryBytes() != null) {
      peakMemoryBytes =
          peakMemoryBytes == null
              ? sim.peakMemoryBytes()
              : Math.max(peakMemoryBytes, sim.peakMemoryBytes());
    }
    error = SimFailure.describe(sim);
    heartbeat(sim.lastHeartbeatAt());
    return true;
  }

  void heartbeat(Instant at) {
    if (at != null && (lastHeartbeat == null || at.isAfter(lastHeartbeat))) {
      lastHeartbeat = at;
    }
  }

  boolean finished() {
    return rank(state) == 3;
  }

  Duration heartbeatAge(Instant serverNow) {
    return lastHeartbeat == null ? null : Duration.between(lastHeartbeat, serverNow);
  }

  boolean changedSincePrinted() {
    return !key().equals(printedKey);
  }

  void printed() {
    printedKey = key();
  }

  private String key() {
    return state + "/" + done + "/" + total;
  }

  String label(int configWidth) {
    return String.format(Locale.ROOT, "%-" + Math.max(1, configWidth) + "s #%d", config, replica);
  }

  /**
   * {@code SM90_H100 #0 [######....] 3/5 running 209.4 KIPS last kernel 12s 612.0 MiB peak
   * heartbeat 1.2s ago}.
   */
  String line(int configWidth, Duration heartbeatAge) {
    StringBuilder line = new StringBuilder();
    line.append(label(configWidth)).append("  ");
    line.append(Formats.bar(done, total, BAR_WIDTH)).append("  ");
    line.append(String.format(Locale.ROOT, "%-9s", state));
    if (instructionsPerSecond != null) {
      // Accel-Sim's own rate so far: thousands of simulated thread instructions a second.
      line.append(String.format(Locale.ROOT, "  %.1f KIPS", instructionsPerSecond / 1000));
    }
    if (lastKernelSeconds != null && !finished()) {
      // Wall time of the latest finished kernel, while more are to come.
      line.append("  last kernel ").append(Formats.seconds(lastKernelSeconds));
    }
    if (peakMemoryBytes != null) {
      // The most resident memory its process tree held so far (local sims).
      line.append("  ").append(Formats.size(peakMemoryBytes)).append(" peak");
    }
    if (!finished()) {
      line.append("  ")
          .append(
              heartbeatAge == null
                  ? "no heartbeat yet"
                  : "heartbeat " + Formats.duration(heartbeatAge) + " ago");
      line.append(Printed.schedule(waiting() ? schedule : withoutPlace(schedule), Instant.now()));
    } else if (error != null) {
      line.append("  ").append(Formats.shorten(error, ERROR_WIDTH));
    }
    return line.toString().stripTrailing();
  }

  /** A sim that left {@code pending} has no place in the queue, whatever an older read says. */
  private boolean waiting() {
    return state.equals("pending");
  }

  private static SimSchedule withoutPlace(SimSchedule schedule) {
    return schedule == null
        ? null
        : new SimSchedule(schedule.simId(), null, schedule.eta(), schedule.basis());
  }

  /** pending 0, launching 1, running and lost (and any state unknown here) 2, finished 3. */
  private static int rank(String state) {
    return switch (state) {
      case "pending" -> 0;
      case "launching" -> 1;
      case "succeeded", "failed", "cancelled" -> 3;
      default -> 2;
    };
  }
}
