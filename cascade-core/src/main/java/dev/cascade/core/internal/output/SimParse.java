package dev.cascade.core.internal.output;

import dev.cascade.accelsim.stats.LogBuilds;
import dev.cascade.core.internal.store.ParseProgress;
import dev.cascade.core.spi.FinishedKernel;
import dev.cascade.core.spi.LogEnd;
import dev.cascade.core.spi.OutputListener;
import dev.cascade.core.spi.OutputParser;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One sim's output as far as it has been parsed: its parser, the lines for the next {@code log}
 * event, the kernels finished since the last write, and the progress kept in its {@code sims} row.
 * Every field is guarded by {@link #lock}; {@link ParserLifecycle} holds it while feeding, so one
 * thread at a time feeds the parser. The fields change before the write that stores them commits:
 * when that write fails, the whole object is dropped ({@link #dead}) and rebuilt from the database.
 */
final class SimParse implements OutputListener {

  /** The statistics {@code latest_metrics} keeps of the latest kernel, besides its own numbers. */
  static final List<String> HEADLINE_STATS =
      List.of(
          "gpu_tot_sim_cycle",
          "gpu_tot_sim_insn",
          "gpu_tot_ipc",
          "gpu_occupancy",
          "L2_BW",
          // Accel-Sim's simulation speed so far: simulated thread instructions per wall second.
          "gpgpu_simulation_rate");

  /** The key of the latest kernel's wall time in {@code latest_metrics}, in seconds. */
  static final String WALL_TIME_KEY = "wall_time_s";

  /**
   * A kernel finished since the last write, at its position among the sim's kernels, and when: the
   * time of the chunk that ended its statistics block ({@link #chunkTime}).
   */
  record Finished(int position, FinishedKernel kernel, Instant finishedAt) {}

  /** What a {@code sim} event reports: when any of it changes, one is sent. */
  record Progress(int kernelsDone, String currentKernel, String latestMetrics, String logOutcome) {}

  final String simId;
  final ReentrantLock lock = new ReentrantLock();

  /** Dropped from the map: whoever waited for the lock must look the sim up again. */
  boolean dead;

  boolean loaded;

  // From the sims row when loaded, then kept in step with it.
  String runId;
  Double clockMhz;
  long chunksParsed;
  int kernelsDone;
  String currentKernel;
  String latestMetrics;
  String logOutcome;

  /**
   * When the previous kernel finished (or the sim was launched, before its first kernel): where the
   * next kernel's wall time counts from; null when not known.
   */
  Instant lastKernelAt;

  /** When the bytes being fed were read: the agent's stamp of their chunk, or its arrival. */
  Instant chunkTime;

  /**
   * The log has ended ({@link SimOutput#finish}): chunks are still stored but no longer parsed, and
   * {@link #held} counts the chunks held without a gap.
   */
  boolean finished;

  long held;

  /**
   * The highest seq held, as loaded and kept up by this process's stores: when it is the chunk just
   * parsed, no chunk after a gap waits and the look for one is skipped.
   */
  long highestHeld = -1;

  // The parse, built at the first chunk to feed, and dropped when the log ends.
  OutputParser parser;

  /** How the log ended, once {@link SimOutput#finish} ended it here. */
  LogEnd finalOutcome;

  /** The build strings the log printed, and those already in the sims row. */
  LogBuilds builds = LogBuilds.NONE;

  LogBuilds buildsStored = LogBuilds.NONE;

  final LogLines lines = new LogLines();
  boolean rebuilding;
  int kernelsSeen;
  private final List<Finished> finishedKernels = new ArrayList<>();

  SimParse(String simId) {
    this.simId = Objects.requireNonNull(simId, "simId");
  }

  /** Feeds a chunk whose bytes were read at {@code readAt}. */
  void feed(byte[] bytes, Instant readAt) {
    chunkTime = readAt;
    feed(bytes);
  }

  void feed(byte[] bytes) {
    parser.feed(bytes, 0, bytes.length);
    lines.feed(bytes, 0, bytes.length);
  }

  Progress progress() {
    return new Progress(kernelsDone, currentKernel, latestMetrics, logOutcome);
  }

  /** The progress as the sim's row keeps it. */
  ParseProgress stored() {
    return new ParseProgress(chunksParsed, kernelsDone, currentKernel, latestMetrics, logOutcome);
  }

  /** The kernels finished since the last call. */
  List<Finished> takeFinished() {
    List<Finished> taken = List.copyOf(finishedKernels);
    finishedKernels.clear();
    return taken;
  }

  /** How the log ended, or is ending: the parser's word when it ran here, else the database's. */
  LogEnd outcome() {
    if (finalOutcome != null) {
      return finalOutcome;
    }
    if (parser != null) {
      return parser.end();
    }
    if (logOutcome == null) {
      return new LogEnd(LogEnd.State.INCOMPLETE, "the log has not ended");
    }
    for (LogEnd.State state : LogEnd.State.values()) {
      if (state.label().equals(logOutcome)) {
        return new LogEnd(state, "as stored when the log ended: " + logOutcome);
      }
    }
    return new LogEnd(LogEnd.State.INCOMPLETE, "unknown stored outcome: " + logOutcome);
  }

  /**
   * A build string: GPGPU-Sim's is kept as the performance model's, any other component's as the
   * simulator's own; the first of each counts.
   */
  @Override
  public void onBuild(String component, String build) {
    onBuild(component, build, null);
  }

  /** As {@link #onBuild(String, String)}, keeping the version the line names with its build. */
  @Override
  public void onBuild(String component, String build, String version) {
    if (component.equals("GPGPU-Sim")) {
      builds =
          builds.gpgpuSim() == null
              ? new LogBuilds(builds.accelSim(), build, builds.accelSimVersion(), version)
              : builds;
    } else {
      builds =
          builds.accelSim() == null
              ? new LogBuilds(build, builds.gpgpuSim(), version, builds.gpgpuSimVersion())
              : builds;
    }
  }

  @Override
  public void onKernelLaunched(String name, long uid) {
    if (!rebuilding) {
      currentKernel = name;
    }
  }

  @Override
  public void onKernelFinished(FinishedKernel kernel) {
    int position = kernelsSeen++;
    if (!rebuilding) {
      finishedKernels.add(new Finished(position, kernel, chunkTime));
    }
  }

  @Override
  public void onEnd(LogEnd end) {
    if (!rebuilding) {
      logOutcome = end.state().label();
    }
  }

  /**
   * A kernel's headline numbers, as {@code latest_metrics} keeps them: its own cycles, instructions
   * and IPC, then the running totals, occupancy and L2 bandwidth its block printed, and its wall
   * time when known.
   */
  static Map<String, Number> headline(FinishedKernel kernel, Duration wallTime) {
    Map<String, Number> metrics = new LinkedHashMap<>();
    metrics.put("cycles", kernel.cycles());
    metrics.put("instructions", kernel.instructions());
    metrics.put("ipc", kernel.ipc());
    for (String key : HEADLINE_STATS) {
      Number value = kernel.values().get(key);
      if (value != null) {
        metrics.put(key, value);
      }
    }
    if (wallTime != null) {
      // Seconds on the wall clock, from the previous kernel's end (or the sim's launch).
      metrics.put(WALL_TIME_KEY, wallTime.toMillis() / 1000.0);
    }
    return metrics;
  }
}
