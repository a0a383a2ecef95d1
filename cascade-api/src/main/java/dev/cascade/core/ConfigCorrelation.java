package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * One GPU config of a run, of the trace's own architecture, against the GPU the trace was measured
 * on.
 *
 * @param gpuConfig the config
 * @param kernels each simulated kernel paired with the measured one of the same launch order
 * @param cycles how simulated cycles follow measured ones; null when no pair has both
 * @param time how simulated time follows measured time; null when no pair has both
 * @param notes what to know, for people: differing kernel counts, names that do not match
 */
public record ConfigCorrelation(
    String gpuConfig,
    List<KernelMatch> kernels,
    CorrelationFit cycles,
    CorrelationFit time,
    List<String> notes) {

  public ConfigCorrelation {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    kernels = List.copyOf(kernels);
    notes = List.copyOf(notes);
  }
}
