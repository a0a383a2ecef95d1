package dev.cascade.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One kernel one sim finished: its statistics block in the sim's log, with the kernel's own numbers
 * worked out from the running totals (as Accel-Sim's {@code get_stats.py -k} does).
 *
 * @param position where its block is in the log among the sim's kernels, from 0
 * @param name the kernel's name ({@code kernel_name = ...})
 * @param uid its launch uid ({@code kernel_launch_uid = ...}); 0 when the log had none
 * @param instance how many kernels of the same name came before it in the log, from 0
 * @param cycles the kernel's own simulated cycles
 * @param instructions the kernel's own instructions
 * @param ipc {@code instructions / cycles}; 0 when {@code cycles} is 0
 * @param stats every numeric {@code key = value} of the block in log order: {@link Long} for
 *     integers, {@link Double} for decimals; unmodifiable
 * @param finishedAt when the kernel finished on the wall clock: when the sim's agent read the end
 *     of its statistics block (or, from agents that do not say, when that output reached the app);
 *     null when not known (kernels stored before Cascade timed them)
 * @param wallTime how long the kernel took on the wall clock: from the previous kernel's end, or
 *     for the first from the sim's launch (so it includes the simulator's start and reading the
 *     trace); null when not known
 */
public record KernelResult(
    int position,
    String name,
    long uid,
    int instance,
    long cycles,
    long instructions,
    double ipc,
    Map<String, Number> stats,
    Instant finishedAt,
    Duration wallTime) {

  /** A kernel whose wall-clock times are not known. */
  public KernelResult(
      int position,
      String name,
      long uid,
      int instance,
      long cycles,
      long instructions,
      double ipc,
      Map<String, Number> stats) {
    this(position, name, uid, instance, cycles, instructions, ipc, stats, null, null);
  }

  public KernelResult {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a kernel's name cannot be blank");
    }
    requireNotNegative("position", position, name);
    requireNotNegative("uid", uid, name);
    requireNotNegative("instance", instance, name);
    requireNotNegative("cycles", cycles, name);
    requireNotNegative("instructions", instructions, name);
    if (!(ipc >= 0) || Double.isInfinite(ipc)) {
      throw new IllegalArgumentException(
          "ipc of kernel \"" + name + "\" must be a finite number, 0 or more; got " + ipc);
    }
    Objects.requireNonNull(stats, "stats");
    Map<String, Number> copy = new LinkedHashMap<>();
    stats.forEach(
        (key, value) ->
            copy.put(
                Objects.requireNonNull(key, "stats key"),
                Objects.requireNonNull(value, () -> "stats value of \"" + key + "\"")));
    stats = Collections.unmodifiableMap(copy);
    if (wallTime != null && wallTime.isNegative()) {
      throw new IllegalArgumentException(
          "wall time of kernel \"" + name + "\" cannot be negative; got " + wallTime);
    }
  }

  private static void requireNotNegative(String field, long value, String name) {
    if (value < 0) {
      throw new IllegalArgumentException(
          field + " of kernel \"" + name + "\" must be 0 or more; got " + value);
    }
  }
}
