package dev.cascade.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One kernel (or the whole trace, named {@link KernelComparison#TOTAL}) of a config in one run
 * against the same kernel of the same config in the baseline run, matched by launch: {@code (name,
 * instance)}, the n-th launch of that name.
 *
 * @param position the kernel's place in the baseline run's kernel rows, from 1; 0 for the total
 * @param name the kernel's name
 * @param instance its launch among those of its name, from 0
 * @param cycles core-clock cycles ({@code gpu_sim_cycle}); null when either side has no replica
 * @param ipc thread-level IPC ({@code gpu_sim_insn / gpu_sim_cycle}); null likewise
 * @param simulatedTime simulated time in microseconds ({@code cycles / core clock}); null also when
 *     the config's clock is unknown
 * @param measures the change of each measure a request asked for beyond these three, by {@link
 *     Measure#id()} in request order; a measure either side has no replica of is absent
 */
public record KernelChange(
    int position,
    String name,
    int instance,
    MeasureChange cycles,
    MeasureChange ipc,
    MeasureChange simulatedTime,
    Map<String, MeasureChange> measures) {

  /** The change of the three fixed measures alone. */
  public KernelChange(
      int position,
      String name,
      int instance,
      MeasureChange cycles,
      MeasureChange ipc,
      MeasureChange simulatedTime) {
    this(position, name, instance, cycles, ipc, simulatedTime, Map.of());
  }

  public KernelChange {
    Objects.requireNonNull(name, "name");
    if (position < 0 || instance < 0) {
      throw new IllegalArgumentException(
          "position and instance of kernel \""
              + name
              + "\" must be 0 or more; got "
              + position
              + " and "
              + instance);
    }
    Objects.requireNonNull(measures, "measures");
    Map<String, MeasureChange> copy = new LinkedHashMap<>();
    measures.forEach(
        (id, change) ->
            copy.put(
                Objects.requireNonNull(id, "measure id"),
                Objects.requireNonNull(change, () -> "change of measure \"" + id + "\"")));
    measures = Collections.unmodifiableMap(copy);
  }

  /** The change from {@code baseline} to {@code run}, both rows of the same kernel. */
  public static KernelChange between(
      int position, KernelComparison baseline, KernelComparison run) {
    return between(position, baseline, run, List.of());
  }

  /**
   * The change from {@code baseline} to {@code run}, both rows of the same kernel, with the change
   * of each of {@code measures} ({@link RunComparisons#extraMeasures}) read from the rows' spreads
   * ({@link KernelComparison#spread}) by the same spread rule, without a speedup.
   */
  public static KernelChange between(
      int position, KernelComparison baseline, KernelComparison run, List<Measure> measures) {
    Map<String, MeasureChange> changes = new LinkedHashMap<>();
    for (Measure measure : measures) {
      MeasureChange change =
          MeasureChange.between(baseline.spread(measure.id()), run.spread(measure.id()), false);
      if (change != null) {
        changes.put(measure.id(), change);
      }
    }
    return new KernelChange(
        position,
        run.name(),
        run.instance(),
        MeasureChange.between(baseline.cycles(), run.cycles(), true),
        MeasureChange.between(baseline.ipc(), run.ipc(), false),
        MeasureChange.between(baseline.simulatedTimeUs(), run.simulatedTimeUs(), true),
        changes);
  }

  /** The change of the measure with this id beyond the three fixed ones; null when absent. */
  public MeasureChange measure(String measureId) {
    return measures.get(measureId);
  }

  /** {@code name#n} for the launch with instance n, as {@link KernelComparison#label} names it. */
  public String label() {
    return KernelComparison.label(name, instance);
  }
}
