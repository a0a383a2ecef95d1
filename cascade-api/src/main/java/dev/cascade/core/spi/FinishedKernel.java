package dev.cascade.core.spi;

import java.util.Map;

/**
 * One kernel a simulator finished, as its output said: simulator-neutral, so results, comparisons
 * and exports need nothing of the simulator's format.
 */
public interface FinishedKernel {

  /** Receives values one at a time, without boxing: see {@link #forEachValue}. */
  interface ValueVisitor {
    void integer(String key, long value);

    void decimal(String key, double value);
  }

  /** The kernel's name as the simulator printed it. */
  String name();

  /** Its launch id; 0 when the output has none. */
  long uid();

  /** How many kernels of the same name came before it in the log, from 0. */
  int instance();

  /** The kernel's own simulated cycles of the core clock. */
  long cycles();

  /** The kernel's own instructions, thread-level. */
  long instructions();

  /** {@code instructions / cycles}; 0 when {@code cycles} is 0. */
  default double ipc() {
    return cycles() == 0 ? 0 : (double) instructions() / cycles();
  }

  /**
   * Every numeric value the simulator printed for the kernel, by its own name, in log order: the
   * statistics a request may name ({@link dev.cascade.core.Measures#parse}). {@link Long} for
   * integers, {@link Double} for decimals.
   */
  Map<String, Number> values();

  /** Each of {@link #values()} in order, without boxing where the parser kept them unboxed. */
  default void forEachValue(ValueVisitor visitor) {
    values()
        .forEach(
            (key, value) -> {
              if (value instanceof Long || value instanceof Integer) {
                visitor.integer(key, value.longValue());
              } else {
                visitor.decimal(key, value.doubleValue());
              }
            });
  }
}
