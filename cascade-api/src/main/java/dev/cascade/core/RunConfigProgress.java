package dev.cascade.core;

import java.util.Map;

/**
 * How far one GPU config of a run has come, over its sims' latest attempts: a line of {@link
 * RunSummary#configs()}.
 *
 * @param gpuConfig the entry's GPU config
 * @param count the entry's replicas
 * @param simsByState how many of its sims are in each state that has any
 * @param kernelsDone kernels its sims have finished
 * @param kernelsTotal kernels its sims are to simulate
 */
public record RunConfigProgress(
    String gpuConfig,
    int count,
    Map<SimState, Integer> simsByState,
    long kernelsDone,
    long kernelsTotal) {

  public RunConfigProgress {
    simsByState = RunSummary.copyCounts(simsByState);
  }
}
