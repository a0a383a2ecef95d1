package dev.cascade.core;

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
 */
public record KernelChange(
    int position,
    String name,
    int instance,
    MeasureChange cycles,
    MeasureChange ipc,
    MeasureChange simulatedTime) {

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
  }

  /** The change from {@code baseline} to {@code run}, both rows of the same kernel. */
  public static KernelChange between(
      int position, KernelComparison baseline, KernelComparison run) {
    return new KernelChange(
        position,
        run.name(),
        run.instance(),
        MeasureChange.between(baseline.cycles(), run.cycles(), true),
        MeasureChange.between(baseline.ipc(), run.ipc(), false),
        MeasureChange.between(baseline.simulatedTimeUs(), run.simulatedTimeUs(), true));
  }

  /** {@code name#n} for the launch with instance n, as {@link KernelComparison#label} names it. */
  public String label() {
    return KernelComparison.label(name, instance);
  }
}
