package dev.cascade.junit;

import java.util.Objects;

/**
 * How much faster one GPU config ran a kernel than another: the baseline's mean simulated time over
 * the candidate's. Above 1 the candidate is faster; 1.25 means it takes 80% of the time.
 *
 * @param name the kernel's name; {@link dev.cascade.core.KernelComparison#TOTAL} for the whole
 *     trace
 * @param instance which launch of that name, from 0
 * @param speedup baseline time / candidate time, means across replicas
 */
public record KernelSpeedup(String name, int instance, double speedup) {

  public KernelSpeedup {
    Objects.requireNonNull(name, "name");
    if (!(speedup > 0) || Double.isInfinite(speedup)) {
      throw new IllegalArgumentException(
          "the speedup of \"" + name + "\" must be a positive number; got " + speedup);
    }
  }
}
