package dev.cascade.core;

import java.util.Objects;

/**
 * One kernel (or the whole trace, named {@link KernelComparison#TOTAL}) of a config against the
 * same kernel of the baseline: matched by {@code (name, instance)}.
 *
 * @param name the kernel's name, as in {@link KernelComparison#name()}
 * @param instance the kernel's launch among those of its name, from 0
 * @param cycles the speedup in simulated cycles; null when either side has no succeeded replica
 * @param simulatedTime the speedup in simulated time ({@code cycles / core clock} of each config);
 *     null also when either config's clock is unknown
 */
public record KernelSpeedup(String name, int instance, Speedup cycles, Speedup simulatedTime) {

  public KernelSpeedup {
    Objects.requireNonNull(name, "name");
    if (instance < 0) {
      throw new IllegalArgumentException(
          "instance of kernel \"" + name + "\" must be 0 or more; got " + instance);
    }
  }

  /** The speedups of {@code config} over {@code baseline}, both of the same kernel. */
  public static KernelSpeedup between(KernelComparison baseline, KernelComparison config) {
    return new KernelSpeedup(
        config.name(),
        config.instance(),
        Speedup.between(baseline.cycles(), config.cycles()),
        Speedup.between(baseline.simulatedTimeUs(), config.simulatedTimeUs()));
  }
}
