package dev.cascade.core.internal.run;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a waiting sim may start now, by memory: its predicted peak must fit the memory free now
 * ({@code MemAvailable}) less a reserve, less what the sims already running are still expected to
 * grow by (a sim that has not reached its predicted peak will take more). A sim whose prediction
 * exceeds the machine's whole memory less the reserve can never fit: it is refused with the figures
 * instead of waiting forever. Pure: the caller measures memory and keeps the predictions ({@link
 * Predictions}); nothing here reads {@code /proc}.
 */
public final class MemoryAdmission {

  private static final long MIB = 1024L * 1024;

  /** What {@link #decide} says of a waiting sim. */
  public sealed interface Decision {
    /** It fits now: start it. */
    record Start(long predictedBytes) implements Decision {}

    /** It would fit once running sims finish or shrink: leave it waiting. */
    record Wait(long predictedBytes, long roomBytes) implements Decision {}

    /** It can never fit this machine: fail it with {@link #reason}. */
    record Never(long predictedBytes, long limitBytes, String reason) implements Decision {}
  }

  /** A running sim's predicted peak and the memory its process tree holds now (0 when unknown). */
  public record Running(long predictedBytes, long residentBytes) {
    public Running {
      requireNotNegative("predictedBytes", predictedBytes);
      requireNotNegative("residentBytes", residentBytes);
    }

    /** How much more it is expected to take. */
    long growth() {
      return Math.max(0, predictedBytes - residentBytes);
    }
  }

  private final long totalBytes;
  private final long reserveBytes;
  private final long simLimitBytes;

  /**
   * @param totalBytes the machine's memory ({@code MemTotal}, or a cgroup's limit when lower)
   * @param reserveBytes memory never handed to sims (for the app, the OS and everything else)
   */
  public MemoryAdmission(long totalBytes, long reserveBytes) {
    this(totalBytes, reserveBytes, Long.MAX_VALUE);
  }

  /**
   * @param totalBytes the machine's memory ({@code MemTotal}, or a cgroup's limit when lower)
   * @param reserveBytes memory never handed to sims (for the app, the OS and everything else)
   * @param simLimitBytes the most memory the sims running at once may hold together, whatever the
   *     machine has free ({@code Long.MAX_VALUE}: no such limit)
   */
  public MemoryAdmission(long totalBytes, long reserveBytes, long simLimitBytes) {
    requireNotNegative("totalBytes", totalBytes);
    if (simLimitBytes <= 0) {
      throw new IllegalArgumentException(
          "the sims' memory limit must be positive; got " + simLimitBytes);
    }
    this.simLimitBytes = simLimitBytes;
    requireNotNegative("reserveBytes", reserveBytes);
    if (reserveBytes >= totalBytes) {
      throw new IllegalArgumentException(
          "the memory reserve ("
              + mib(reserveBytes)
              + ") must be less than the machine's memory ("
              + mib(totalBytes)
              + "); lower the reserve");
    }
    this.totalBytes = totalBytes;
    this.reserveBytes = reserveBytes;
  }

  /**
   * Whether a sim predicted to peak at {@code predictedBytes} may start now.
   *
   * @param availableBytes memory free now ({@code MemAvailable}): the running sims' resident memory
   *     is already out of it
   * @param running the sims running now
   */
  public Decision decide(long predictedBytes, long availableBytes, Collection<Running> running) {
    requireNotNegative("predictedBytes", predictedBytes);
    requireNotNegative("availableBytes", availableBytes);
    long machine = totalBytes - reserveBytes;
    if (predictedBytes > Math.min(machine, simLimitBytes)) {
      return new Decision.Never(
          predictedBytes,
          Math.min(machine, simLimitBytes),
          "needs about "
              + mib(predictedBytes)
              + " at its peak (predicted), more than this machine can give a sim: "
              + (simLimitBytes < machine
                  ? "the sims' memory limit is " + mib(simLimitBytes)
                  : mib(totalBytes)
                      + " of memory less the "
                      + mib(reserveBytes)
                      + " reserve is "
                      + mib(machine)));
    }
    long growth = running.stream().mapToLong(Running::growth).sum();
    long held = running.stream().mapToLong(Running::residentBytes).sum();
    long free = Math.min(availableBytes - reserveBytes, simLimitBytes - held);
    long room = Math.max(0, free - growth);
    if (predictedBytes <= room) {
      return new Decision.Start(predictedBytes);
    }
    return new Decision.Wait(predictedBytes, room);
  }

  /**
   * Predicted peaks, learnt from the sims that finish: the largest peak seen for the same trace and
   * config, else for the same trace, else a first guess from the trace's size on disk.
   */
  public static final class Predictions {

    /** A first guess for a trace never run: a floor for the simulator itself... */
    static final long BASE_BYTES = 512 * MIB;

    /** ...plus this many times the trace's bytes on disk (a simulator reads kernels as it goes). */
    static final int PER_TRACE_BYTE = 2;

    private final Map<String, Long> byTraceAndConfig = new HashMap<>();
    private final Map<String, Long> byTrace = new HashMap<>();

    /** What a sim of {@code traceId} on {@code config} is expected to peak at. */
    public synchronized Prediction predict(String traceId, String config, long traceBytes) {
      Long exact = byTraceAndConfig.get(key(traceId, config));
      if (exact != null) {
        return new Prediction(exact, "earlier sims of this trace on " + config);
      }
      Long sameTrace = byTrace.get(traceId);
      if (sameTrace != null) {
        return new Prediction(sameTrace, "earlier sims of this trace on other configs");
      }
      long guess = BASE_BYTES + PER_TRACE_BYTE * Math.max(0, traceBytes);
      return new Prediction(
          guess, "a first guess from the trace's size (" + mib(traceBytes) + ")", false);
    }

    /**
     * Learns a finished sim's measured peak. The largest seen counts, so one lucky run does not
     * make the next start where it cannot fit.
     */
    public synchronized void learn(String traceId, String config, long peakBytes) {
      requireNotNegative("peakBytes", peakBytes);
      byTraceAndConfig.merge(key(traceId, config), peakBytes, Math::max);
      byTrace.merge(traceId, peakBytes, Math::max);
    }

    private static String key(String traceId, String config) {
      return Objects.requireNonNull(traceId, "traceId")
          + "\u0000"
          + Objects.requireNonNull(config, "config");
    }
  }

  /**
   * A predicted peak and what it comes from, for the UI and errors.
   *
   * @param measured true when it comes from sims that ran, false for a first guess
   */
  public record Prediction(long bytes, String basis, boolean measured) {
    public Prediction(long bytes, String basis) {
      this(bytes, basis, true);
    }
  }

  static String mib(long bytes) {
    return (bytes + MIB - 1) / MIB + " MiB";
  }

  private static void requireNotNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " cannot be negative; got " + value);
    }
  }
}
