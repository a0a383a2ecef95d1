package dev.cascade.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a run's results are final, and what is still to come when they are not. While a run is
 * active its results are partial: each kernel's row counts every replica that has finished that
 * kernel, the replicas still running included (a finished kernel's numbers do not change), but a
 * config's total counts only its succeeded replicas, since a running replica's sum is not yet its
 * whole trace. Once every sim has finished, only succeeded replicas count anywhere.
 *
 * @param partial true while the run is active: more kernels are to come
 * @param sims the sims of the run (latest attempts)
 * @param simsFinished how many of them have finished (succeeded, failed or cancelled)
 * @param kernelsDone kernels finished so far, over every sim
 * @param kernelsTotal kernels the sims are to simulate in all
 * @param toCome the unfinished sims, in the run's order, with how far each has come; empty when not
 *     partial
 */
public record PartialResults(
    boolean partial,
    int sims,
    int simsFinished,
    int kernelsDone,
    int kernelsTotal,
    List<SimToCome> toCome) {

  /**
   * A sim whose kernels are still coming.
   *
   * @param simId the sim
   * @param gpuConfig its config
   * @param replica its replica
   * @param state where it is ({@code pending}, {@code launching}, {@code running}, {@code lost})
   * @param kernelsDone its kernels finished so far: they count in its config's kernel rows
   * @param kernelsTotal the kernels it is to simulate
   */
  public record SimToCome(
      String simId,
      String gpuConfig,
      int replica,
      SimState state,
      int kernelsDone,
      int kernelsTotal) {

    public SimToCome {
      Objects.requireNonNull(simId, "simId");
      Objects.requireNonNull(gpuConfig, "gpuConfig");
      Objects.requireNonNull(state, "state");
    }
  }

  public PartialResults {
    toCome = List.copyOf(toCome);
    if (simsFinished < 0 || simsFinished > sims) {
      throw new IllegalArgumentException(
          "finished sims must be 0 to " + sims + "; got " + simsFinished);
    }
  }

  /** What the run's results cover now, from its sims' states and progress. */
  public static PartialResults of(Run run) {
    Objects.requireNonNull(run, "run");
    List<Sim> sims = run.latestAttempts();
    int done = 0;
    int total = 0;
    for (Sim sim : sims) {
      done += sim.progress().kernelsDone();
      total += Math.max(sim.progress().kernelsTotal(), sim.progress().kernelsDone());
    }
    List<SimToCome> toCome =
        sims.stream()
            .filter(sim -> !sim.state().isFinished())
            .map(
                sim ->
                    new SimToCome(
                        sim.id(),
                        sim.gpuConfig(),
                        sim.replica(),
                        sim.state(),
                        sim.progress().kernelsDone(),
                        sim.progress().kernelsTotal()))
            .toList();
    return new PartialResults(
        run.state() == RunState.ACTIVE,
        sims.size(),
        sims.size() - toCome.size(),
        done,
        total,
        toCome);
  }

  /**
   * For people: {@code partial: 3 of 8 sims finished, 20 of 64 kernels done; still to come:
   * SM90_H100 replicas 1, 2}; {@code final: every sim has finished} when not partial.
   */
  public String summary() {
    if (!partial) {
      return "final: every sim has finished";
    }
    StringBuilder text =
        new StringBuilder("partial: ")
            .append(simsFinished)
            .append(" of ")
            .append(sims)
            .append(" sims finished, ")
            .append(kernelsDone)
            .append(" of ")
            .append(kernelsTotal)
            .append(" kernels done; still to come:");
    Map<String, List<Integer>> byConfig = new LinkedHashMap<>();
    for (SimToCome sim : toCome) {
      byConfig.computeIfAbsent(sim.gpuConfig(), c -> new ArrayList<>()).add(sim.replica());
    }
    String separator = " ";
    for (Map.Entry<String, List<Integer>> entry : byConfig.entrySet()) {
      text.append(separator)
          .append(entry.getKey())
          .append(entry.getValue().size() == 1 ? " replica " : " replicas ")
          .append(String.join(", ", entry.getValue().stream().map(String::valueOf).toList()));
      separator = "; ";
    }
    return text.toString();
  }
}
