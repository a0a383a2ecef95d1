package dev.cascade.accelsim.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One finished kernel: its statistics block, and its own numbers worked out from the running totals
 * the way Accel-Sim's {@code get_stats.py -k -K} does.
 *
 * @param name the kernel's name ({@code kernel_name = ...}); never blank ({@code (unnamed)} when
 *     the log had none)
 * @param uid the kernel's launch uid ({@code kernel_launch_uid = ...}, else the matching launch
 *     line's uid), 0 when the log had none
 * @param instance how many blocks with the same kernel name came before this one in the log (the
 *     first is 0)
 * @param cycles the kernel's own cycles: {@code gpu_tot_sim_cycle} minus the previous block's (the
 *     total itself for the first block)
 * @param instructions the kernel's own instructions: {@code gpu_tot_sim_insn} minus the previous
 *     block's
 * @param ipc {@code instructions / cycles}, 0 when {@code cycles} is 0
 * @param stats every numeric {@code key = value} of the block, in log order, with unique keys (see
 *     {@code docs/accelsim.md} for how keys are named); values are {@link Long} for integers and
 *     {@link Double} for decimals; unmodifiable
 * @param vectors every vector statistic of the block, {@code key = v0,v1,...} (two or more numbers
 *     separated by commas, as Accel-Sim 2.0 prints some), its values in order, in log order; a key
 *     printed again gets {@code #2}, {@code #3}...; empty when the block has none; unmodifiable
 */
public record KernelStats(
    String name,
    long uid,
    int instance,
    long cycles,
    long instructions,
    double ipc,
    Map<String, Number> stats,
    Map<String, List<Number>> vectors) {

  /** Receives statistics one at a time, without boxing: see {@link #forEachStat}. */
  public interface StatVisitor {
    /** An integer value, such as {@code gpu_sim_cycle = 9118}. */
    void integer(String key, long value);

    /** A decimal value, such as {@code gpu_occupancy = 16.4256%}. */
    void decimal(String key, double value);
  }

  public KernelStats {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("kernel name must not be blank");
    }
    requireNotNegative("uid", uid);
    requireNotNegative("instance", instance);
    requireNotNegative("cycles", cycles);
    requireNotNegative("instructions", instructions);
    if (!(ipc >= 0) || Double.isInfinite(ipc)) {
      throw new IllegalArgumentException(
          "ipc must be a finite number, not negative: '" + ipc + "' for kernel '" + name + "'");
    }
    Objects.requireNonNull(stats, "stats");
    if (!(stats instanceof BlockStats)) {
      Map<String, Number> copy = new LinkedHashMap<>();
      stats.forEach(
          (key, value) ->
              copy.put(
                  Objects.requireNonNull(key, "stats key"),
                  Objects.requireNonNull(value, "stats value for '" + key + "'")));
      stats = Collections.unmodifiableMap(copy);
    }
    if (vectors == null || vectors.isEmpty()) {
      vectors = Map.of();
    } else {
      Map<String, List<Number>> copy = new LinkedHashMap<>();
      vectors.forEach(
          (key, values) ->
              copy.put(Objects.requireNonNull(key, "vectors key"), List.copyOf(values)));
      vectors = Collections.unmodifiableMap(copy);
    }
  }

  /** A kernel without vector statistics. */
  public KernelStats(
      String name,
      long uid,
      int instance,
      long cycles,
      long instructions,
      double ipc,
      Map<String, Number> stats) {
    this(name, uid, instance, cycles, instructions, ipc, stats, Map.of());
  }

  /** Calls {@code visitor} with every statistic of the block, in log order. */
  public void forEachStat(StatVisitor visitor) {
    Objects.requireNonNull(visitor, "visitor");
    if (stats instanceof BlockStats block) {
      block.visit(visitor);
      return;
    }
    stats.forEach(
        (key, value) -> {
          if (value instanceof Long
              || value instanceof Integer
              || value instanceof Short
              || value instanceof Byte) {
            visitor.integer(key, value.longValue());
          } else {
            visitor.decimal(key, value.doubleValue());
          }
        });
  }

  private static void requireNotNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must not be negative: '" + value + "'");
    }
  }
}
