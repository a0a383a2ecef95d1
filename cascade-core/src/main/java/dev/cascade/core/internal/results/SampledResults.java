package dev.cascade.core.internal.results;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.Measures;
import dev.cascade.core.RunEntry;
import dev.cascade.core.SampledEstimate;
import dev.cascade.core.SamplingPlan;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.Spread;
import dev.cascade.core.internal.sampling.SampledEstimator;
import dev.cascade.core.internal.store.KernelRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sampled entry's result: its total made the whole trace's estimate, replica by replica, from the
 * representatives its sims simulated and the weights of the trace's {@link SamplingPlan}; the
 * per-kernel rows stay the representatives' own numbers.
 */
final class SampledResults {

  private static final List<String> IDS = List.of(Measures.CYCLES.id(), Measures.INSTRUCTIONS.id());

  private SampledResults() {}

  /**
   * {@code result} with its total estimated. When the plan no longer matches what the sims ran (the
   * trace changed since), or a succeeded replica lacks a representative, the total stays the
   * representatives' own sum and a note says why.
   */
  static ConfigResult estimate(
      ConfigResult result,
      RunEntry entry,
      List<Sim> sims,
      Map<String, List<KernelRepository.Headline>> kernelsBySim,
      SamplingPlan plan,
      SampledEstimate.Validation validation) {
    List<String> notes = new ArrayList<>(result.notes());
    List<Sim> succeeded =
        sims.stream()
            .filter(sim -> sim.state() == SimState.SUCCEEDED)
            .sorted((a, b) -> Integer.compare(a.replica(), b.replica()))
            .toList();
    String planned = plan.window().text();
    for (Sim sim : succeeded) {
      if (!planned.equals(sim.kernels())) {
        notes.add(
            0,
            "sampled, but replica "
                + sim.replica()
                + " simulated kernels \""
                + sim.kernels()
                + "\" while the trace's plan now names \""
                + planned
                + "\" (the trace changed since the run): the total is the simulated kernels' own,"
                + " not an estimate of the whole trace");
        return result.withSampling(result.total(), notes, null);
      }
    }
    List<Integer> replicas = new ArrayList<>();
    List<Double> cycles = new ArrayList<>();
    List<Double> instructions = new ArrayList<>();
    for (Sim sim : succeeded) {
      List<Integer> positions = KernelWindow.parse(sim.kernels()).positions();
      Map<Integer, Map<String, Double>> byPosition = new HashMap<>();
      for (KernelRepository.Headline kernel : kernelsBySim.getOrDefault(sim.id(), List.of())) {
        if (kernel.position() < positions.size()) {
          byPosition.put(
              positions.get(kernel.position()),
              Map.of(
                  Measures.CYCLES.id(), (double) kernel.cycles(),
                  Measures.INSTRUCTIONS.id(), (double) kernel.instructions()));
        }
      }
      var estimate = SampledEstimator.replica(plan, byPosition, IDS);
      if (estimate.isEmpty()) {
        notes.add(
            0,
            "sampled, but replica "
                + sim.replica()
                + " did not print every representative kernel: the total is the simulated"
                + " kernels' own, not an estimate of the whole trace");
        return result.withSampling(result.total(), notes, null);
      }
      replicas.add(sim.replica());
      cycles.add(estimate.get().get(Measures.CYCLES.id()));
      instructions.add(estimate.get().get(Measures.INSTRUCTIONS.id()));
    }
    Double clock = result.clockMhz();
    List<Double> ipc = new ArrayList<>();
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < cycles.size(); i++) {
      ipc.add(cycles.get(i) == 0 ? 0.0 : instructions.get(i) / cycles.get(i));
      if (clock != null) {
        times.add(cycles.get(i) / clock);
      }
    }
    KernelComparison total =
        new KernelComparison(
            KernelComparison.TOTAL,
            0,
            replicas,
            Spread.of(cycles),
            Spread.of(instructions),
            Spread.of(ipc),
            clock == null ? Spread.empty() : Spread.of(times),
            result.total().measures());
    double predicted = plan.predictedError();
    Map<String, SampledEstimate.Interval> intervals = new LinkedHashMap<>();
    if (!cycles.isEmpty()) {
      intervals.put(Measures.CYCLES.id(), SampledEstimator.interval(cycles, predicted));
      intervals.put(Measures.INSTRUCTIONS.id(), SampledEstimator.interval(instructions, predicted));
      if (clock != null) {
        intervals.put(Measures.SIMULATED_TIME_US.id(), SampledEstimator.interval(times, predicted));
      }
    }
    Double seconds = meanSeconds(succeeded);
    double share = plan.simulatedShare();
    SampledEstimate.Validation checked = validation;
    if (validation != null && validation.fullCycles() != null && !cycles.isEmpty()) {
      double mean = intervals.get(Measures.CYCLES.id()).estimate();
      checked =
          new SampledEstimate.Validation(
              validation.runId(),
              validation.state(),
              validation.fullCycles(),
              mean / validation.fullCycles() - 1);
    }
    SampledEstimate estimate =
        new SampledEstimate(
            plan.simulatedKernels(),
            plan.kernels(),
            plan.simulatedWarpInstructions(),
            plan.warpInstructions(),
            predicted,
            intervals,
            seconds,
            seconds == null || share <= 0 ? null : seconds / share,
            checked);
    notes.add(0, estimate.summary() + explanation(plan, entry));
    if (!result.total().measures().isEmpty()) {
      notes.add(
          "statistics asked for beyond the four defaults are the simulated kernels' own, not"
              + " estimated for the whole trace");
    }
    if (checked != null) {
      notes.add(
          checked.realError() == null
              ? "validation: run "
                  + checked.runId()
                  + " simulating the whole trace is "
                  + checked.state()
              : "validation: the whole trace simulated in run "
                  + checked.runId()
                  + " took "
                  + Math.round(checked.fullCycles())
                  + " cycles; the estimate's real error is "
                  + signedPercent(checked.realError())
                  + ", its predicted interval \u00b1"
                  + SamplingPlan.percent(estimate.cyclesInterval()));
    }
    return result.withSampling(total, notes, estimate);
  }

  private static String explanation(SamplingPlan plan, RunEntry entry) {
    return ": each replica's total is the sum over "
        + plan.simulatedKernels()
        + " strata of a representative's numbers times its weight (target error "
        + SamplingPlan.percent(entry.sampling().targetError())
        + ", predicted "
        + SamplingPlan.percent(plan.predictedError())
        + ")";
  }

  /** The mean wall time of the sims from launch to finish; null when none has both times. */
  private static Double meanSeconds(List<Sim> sims) {
    double sum = 0;
    int n = 0;
    for (Sim sim : sims) {
      if (sim.launchedAt() != null && sim.finishedAt() != null) {
        sum += Duration.between(sim.launchedAt(), sim.finishedAt()).toMillis() / 1000.0;
        n++;
      }
    }
    return n == 0 ? null : sum / n;
  }

  static String signedPercent(double fraction) {
    return (fraction >= 0 ? "+" : "")
        + String.format(java.util.Locale.ROOT, "%.2f%%", fraction * 100);
  }
}
