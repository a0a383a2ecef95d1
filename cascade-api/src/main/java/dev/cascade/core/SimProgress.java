package dev.cascade.core;

import java.util.Map;
import java.util.Objects;

/**
 * How far a sim has come, as its output says: read from the chunks it sent, in order.
 *
 * @param kernelsDone kernels whose statistics block the sim has printed
 * @param kernelsTotal the kernels of the trace ({@code kernelslist.g}'s kernel lines)
 * @param currentKernel the kernel now running (the latest {@code launching kernel name:} line);
 *     null before the first
 * @param latestMetrics headline numbers of the latest finished kernel ({@code cycles}, {@code
 *     instructions}, {@code ipc}, {@code gpu_tot_sim_cycle}, ...); empty before the first
 * @param logOutcome what the end of the log said ({@code complete}, {@code not_final}, {@code
 *     failed}, {@code incomplete}); null while the log has not ended
 */
public record SimProgress(
    int kernelsDone,
    int kernelsTotal,
    String currentKernel,
    Map<String, Number> latestMetrics,
    String logOutcome) {

  public SimProgress {
    Objects.requireNonNull(latestMetrics, "latestMetrics");
    latestMetrics = Map.copyOf(latestMetrics);
    if (kernelsDone < 0 || kernelsTotal < 0) {
      throw new IllegalArgumentException(
          "kernel counts cannot be negative; got " + kernelsDone + " of " + kernelsTotal);
    }
  }

  /** A sim that has printed nothing yet, on a trace of {@code kernelsTotal} kernels. */
  public static SimProgress none(int kernelsTotal) {
    return new SimProgress(0, kernelsTotal, null, Map.of(), null);
  }
}
