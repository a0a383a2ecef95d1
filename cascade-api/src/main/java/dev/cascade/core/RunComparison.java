package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * Two or more runs compared, the first as the baseline: per other run, per config both have, per
 * kernel and in total, the change in cycles, IPC and simulated time with the spread test, and which
 * inputs differ ({@link RunComparisons#compare}).
 *
 * @param baseline the baseline run's id
 * @param runs every run compared, the baseline first
 * @param changes per run after the baseline, in the order given
 * @param measures the measures compared beyond cycles, IPC and simulated time, in request order
 *     (each kernel change's {@link KernelChange#measures()}); empty unless a request asked
 */
public record RunComparison(
    String baseline, List<ComparedRun> runs, List<RunChange> changes, List<Measure> measures) {

  /** A comparison of cycles, IPC and simulated time alone. */
  public RunComparison(String baseline, List<ComparedRun> runs, List<RunChange> changes) {
    this(baseline, runs, changes, List.of());
  }

  /**
   * A run as compared.
   *
   * @param runId the run
   * @param traceId its trace
   * @param state its state
   * @param partial true while the run is active and its results are partial ({@link
   *     PartialResults})
   */
  public record ComparedRun(String runId, String traceId, RunState state, boolean partial) {

    public ComparedRun {
      Objects.requireNonNull(runId, "runId");
      Objects.requireNonNull(traceId, "traceId");
      Objects.requireNonNull(state, "state");
    }
  }

  public RunComparison {
    Objects.requireNonNull(baseline, "baseline");
    runs = List.copyOf(runs);
    changes = List.copyOf(changes);
    measures = List.copyOf(measures);
  }

  /** The change of the run with this id against the baseline, null when it is not compared. */
  public RunChange change(String runId) {
    return changes.stream().filter(c -> c.runId().equals(runId)).findFirst().orElse(null);
  }
}
