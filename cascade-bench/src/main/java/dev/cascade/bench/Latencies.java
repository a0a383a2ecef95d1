package dev.cascade.bench;

import java.util.Arrays;

/** A growable list of round trips in nanoseconds, with percentiles. Not thread-safe. */
final class Latencies {

  private long[] values = new long[1024];
  private int size;

  void add(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  void addAll(Latencies other) {
    for (int i = 0; i < other.size; i++) {
      add(other.values[i]);
    }
  }

  int size() {
    return size;
  }

  /** The {@code p} quantile (0 to 1) in milliseconds, nearest rank; NaN when empty. */
  double millis(double p) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p * size) - 1;
    return sorted[Math.max(0, Math.min(size - 1, index))] / 1e6;
  }

  double maxMillis() {
    return millis(1.0);
  }
}
