package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * A run's simulated kernels against what the GPU measured for the same trace (a Nsight Compute CSV
 * in the trace's {@code hardware/} folder, or given to the API), for the run's configs of the
 * trace's own architecture. Kernels are paired by launch order.
 *
 * @param traceId the run's trace
 * @param traceArch the architecture the trace was captured on
 * @param source where the measured numbers came from ({@code hardware/ncu.csv}); null when the
 *     trace has none, and then {@code configs} is empty
 * @param measuredKernels how many kernel launches the CSV holds
 * @param configs per config of {@code traceArch}, in the run's entry order
 * @param notes what to know, for people: why nothing is compared
 */
public record HardwareCorrelation(
    String traceId,
    String traceArch,
    String source,
    int measuredKernels,
    List<ConfigCorrelation> configs,
    List<String> notes) {

  public HardwareCorrelation {
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(traceArch, "traceArch");
    configs = List.copyOf(configs);
    notes = List.copyOf(notes);
  }
}
