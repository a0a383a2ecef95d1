package dev.cascade.core;

import dev.cascade.core.internal.sampling.KernelFeatures;
import dev.cascade.core.internal.sampling.SamplingPlanner;
import java.util.List;

/**
 * Kernel sampling plans made from a trace's kernels without a running Cascade (the command line's
 * {@code trace-info --sampling} reads a folder): the same planner the run service uses ({@link
 * Traces#sampling}), over the kernels' names, shapes and warp instruction counts.
 */
public final class SamplingPlans {

  private SamplingPlans() {}

  /**
   * The plan of {@code kernels} as {@code request} asks.
   *
   * @throws IllegalArgumentException naming the budget when it is below the kernel groups
   */
  public static SamplingPlan plan(String traceId, List<TraceKernel> kernels, Sampling request) {
    return SamplingPlanner.plan(
        traceId,
        kernels.stream()
            .map(k -> KernelFeatures.of(k.index(), k.name(), k.grid(), k.block(), k.instructions()))
            .toList(),
        request);
  }
}
