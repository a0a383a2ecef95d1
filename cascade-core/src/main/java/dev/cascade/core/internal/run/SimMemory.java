package dev.cascade.core.internal.run;

import dev.cascade.core.MemorySettings;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory of local sims: measured while they run ({@link SimMemoryWatch}: each one's peak, and
 * whether the out-of-memory killer ended one) and admitted by it ({@link MemoryGate}: the queue
 * starts a sim only when its predicted peak fits). For launchers whose sims run elsewhere, {@link
 * #none()} measures and admits nothing.
 */
public final class SimMemory implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SimMemory.class);

  /** How often a local sim's process tree is sampled. */
  private static final long SAMPLE_MILLIS = 250;

  /** Attempts after the first that each double the memory a launch asks for, at most. */
  private static final int MAX_DOUBLINGS = 4;

  private final MemorySettings settings;
  private final SimMemoryWatch watch;
  private final MemoryGate gate;
  private final MemoryAdmission.Predictions predictions;

  private SimMemory(
      MemorySettings settings,
      SimMemoryWatch watch,
      MemoryGate gate,
      MemoryAdmission.Predictions predictions) {
    this.settings = settings;
    this.watch = watch;
    this.gate = gate;
    this.predictions = predictions;
  }

  /**
   * Nothing measured, nothing admitted by memory (sims that run elsewhere); launches are still told
   * a prediction ({@link #launchBytes}).
   */
  public static SimMemory none(MemorySettings settings) {
    return new SimMemory(settings, null, null, new MemoryAdmission.Predictions());
  }

  /**
   * Local sims measured through {@code /proc} and admitted by memory under {@code settings}; only
   * measured when the reserve leaves no memory to admit by, and neither without {@code /proc}.
   */
  public static SimMemory local(MemorySettings settings) {
    ProcMemory proc = new ProcMemory();
    OptionalLong total = proc.total();
    if (total.isEmpty()) {
      log.info("no /proc/meminfo here: local sims' memory is neither measured nor admitted by");
      return none(settings);
    }
    MemoryAdmission.Predictions predictions = new MemoryAdmission.Predictions();
    SimMemoryWatch watch = new SimMemoryWatch(proc, SAMPLE_MILLIS);
    if (settings.reserveBytes() >= total.getAsLong()) {
      log.warn(
          "the memory reserve ({}) is not less than this machine's memory ({}): sims are not"
              + " admitted by memory; lower CASCADE_MEMORY_RESERVE",
          MemoryAdmission.mib(settings.reserveBytes()),
          MemoryAdmission.mib(total.getAsLong()));
      return new SimMemory(settings, watch, null, predictions);
    }
    MemoryGate gate = new MemoryGate(settings, total.getAsLong(), proc, watch, predictions);
    return new SimMemory(settings, watch, gate, predictions);
  }

  /** The settings: the reserve, the sims' limit, and out-of-memory attempts. */
  public MemorySettings settings() {
    return settings;
  }

  SlotQueue.Admission admission() {
    return gate == null ? SlotQueue.Admission.ALWAYS : gate;
  }

  /** Starts sampling; {@code sink} stores peaks, {@code afterSample} rechecks the queue. */
  void start(SimMemoryWatch.PeakSink sink, Runnable afterSample) {
    if (watch != null) {
      watch.start(sink, afterSample);
    }
  }

  /** A sim queued for launch: what its peak is predicted from. */
  void expect(String simId, String traceId, String config, long traceBytes) {
    if (gate != null) {
      gate.expect(simId, new MemoryGate.Need(traceId, config, traceBytes));
    }
  }

  /**
   * Learns the peaks earlier sims measured, run id to config to bytes ({@code
   * SimRepository#peakMemoryByRunAndConfig}), each run of the trace {@code traceIdsOfRuns} gives:
   * what predictions start from after a restart.
   */
  public void learn(Map<String, Map<String, Long>> peaksByRun, Map<String, String> traceIdsOfRuns) {
    peaksByRun.forEach(
        (runId, byConfig) -> {
          String traceId = traceIdsOfRuns.get(runId);
          if (traceId == null) {
            return;
          }
          byConfig.forEach(
              (config, bytes) -> {
                if (bytes > 0) {
                  predictions.learn(traceId, config, bytes);
                }
              });
        });
  }

  /**
   * The memory a launch of attempt {@code attempt} of a sim of {@code traceId} on {@code config}
   * asks for ({@link dev.cascade.core.spi.SimLaunch#memoryBytes}): its predicted peak, doubled for
   * each attempt after the first (up to 16 times), so a sim an out-of-memory kill ended gets more.
   */
  long launchBytes(int attempt, String traceId, String config, long traceBytes) {
    long predicted =
        gate != null
            ? gate.predict(new MemoryGate.Need(traceId, config, traceBytes)).bytes()
            : predictions.predict(traceId, config, traceBytes).bytes();
    int doublings = Math.min(MAX_DOUBLINGS, Math.max(0, attempt - 1));
    return predicted > Long.MAX_VALUE >> doublings ? Long.MAX_VALUE : predicted << doublings;
  }

  /** Starts measuring a launched local sim whose first process is {@code pid}. */
  void watch(String simId, long pid) {
    if (watch != null) {
      watch.watch(simId, pid);
    }
  }

  /** The sim's peak so far and whether the out-of-memory killer ended a process of it. */
  Optional<SimMemoryWatch.Reading> reading(String simId) {
    return watch == null ? Optional.empty() : watch.reading(simId);
  }

  /** Stops measuring the sim; its peak teaches the predictions; what it came to. */
  Optional<SimMemoryWatch.Reading> finish(String simId) {
    if (watch == null) {
      return Optional.empty();
    }
    Optional<SimMemoryWatch.Reading> reading = watch.stop(simId);
    if (gate != null) {
      reading.ifPresent(r -> gate.learn(simId, r.peakBytes()));
      gate.forget(simId);
    }
    return reading;
  }

  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
  }
}
