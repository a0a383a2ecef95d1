package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * A config's speedups over the run's baseline config, per kernel and for the whole trace.
 *
 * @param gpuConfig the config compared
 * @param baseline the config it is compared with (the baseline's own speedups are all 1 and the
 *     same within spread)
 * @param kernels per kernel the config has, in its order; a kernel the baseline lacks is left out
 *     and named in {@code notes}
 * @param total the whole trace
 * @param notes what to know, for people: kernels only one side has
 */
public record ConfigSpeedups(
    String gpuConfig,
    String baseline,
    List<KernelSpeedup> kernels,
    KernelSpeedup total,
    List<String> notes) {

  public ConfigSpeedups {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    Objects.requireNonNull(baseline, "baseline");
    kernels = List.copyOf(kernels);
    Objects.requireNonNull(total, "total");
    notes = List.copyOf(notes);
  }

  /** The speedup of the kernel with this name and instance, null when the baseline lacks it. */
  public KernelSpeedup kernel(String name, int instance) {
    return kernels.stream()
        .filter(kernel -> kernel.name().equals(name) && kernel.instance() == instance)
        .findFirst()
        .orElse(null);
  }
}
