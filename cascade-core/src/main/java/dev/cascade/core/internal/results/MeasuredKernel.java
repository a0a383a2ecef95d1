package dev.cascade.core.internal.results;

import java.util.Objects;

/**
 * One kernel launch as the GPU ran it, from Nsight Compute.
 *
 * @param position its place in launch order, from 0
 * @param name the kernel's name as ncu printed it (usually demangled)
 * @param cycles {@code gpc__cycles_elapsed.max}; null when the CSV lacks the column
 * @param timeUs {@code gpu__time_duration.sum} in microseconds; null when the CSV lacks it
 */
public record MeasuredKernel(int position, String name, Double cycles, Double timeUs) {

  public MeasuredKernel {
    Objects.requireNonNull(name, "name");
  }
}
