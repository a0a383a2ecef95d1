package dev.cascade.core;

import java.util.List;
import java.util.Objects;

/**
 * One GPU config present in both a baseline run and another run: per kernel and in total, how its
 * cycles, IPC and simulated time changed, and which of its inputs differ between the two runs.
 *
 * @param gpuConfig the config's name, the same in both runs
 * @param kernels per kernel both runs have, in the baseline's order
 * @param total the whole trace
 * @param inputs trace, config content, simulator and simulator build, each the same, different or
 *     unknown
 * @param notes for people: kernels only one run has, a side with no succeeded replica
 */
public record ConfigChange(
    String gpuConfig,
    List<KernelChange> kernels,
    KernelChange total,
    List<InputDifference> inputs,
    List<String> notes) {

  public ConfigChange {
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    kernels = List.copyOf(kernels);
    Objects.requireNonNull(total, "total");
    inputs = List.copyOf(inputs);
    notes = List.copyOf(notes);
  }

  /** The inputs that differ, by name ({@code simulator build}); empty when none is known to. */
  public List<String> differs() {
    return inputs.stream()
        .filter(input -> input.status() == InputDifference.Status.DIFFERS)
        .map(InputDifference::input)
        .toList();
  }

  /** The change of the kernel with this name and instance, null when either run lacks it. */
  public KernelChange kernel(String name, int instance) {
    return kernels.stream()
        .filter(kernel -> kernel.name().equals(name) && kernel.instance() == instance)
        .findFirst()
        .orElse(null);
  }
}
