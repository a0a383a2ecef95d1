package dev.cascade.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** CPU time from {@code /proc} (Linux): of this JVM, of one process, and of reaped children. */
final class CpuTime {

  /** Clock ticks a second ({@code getconf CLK_TCK}), 100 on Linux. */
  private static final double TICKS = 100;

  private CpuTime() {}

  /** This JVM's CPU seconds so far; NaN when unknown. */
  static double self() {
    return ProcessHandle.current()
        .info()
        .totalCpuDuration()
        .map(Duration::toNanos)
        .map(nanos -> nanos / 1e9)
        .orElse(Double.NaN);
  }

  /** CPU seconds of the children this JVM has waited for (reaped), so far; NaN when unknown. */
  static double reapedChildren() {
    long[] fields = stat(Path.of("/proc/self/stat"));
    return fields == null ? Double.NaN : (fields[13] + fields[14]) / TICKS;
  }

  /** CPU seconds of a live process; 0 when it is gone. */
  static double process(long pid) {
    long[] fields = stat(Path.of("/proc", Long.toString(pid), "stat"));
    return fields == null ? 0 : (fields[11] + fields[12]) / TICKS;
  }

  /**
   * The numeric fields of a {@code stat} file after the command name: index 0 is field 3 ({@code
   * state}, read as 0), so {@code utime} (field 14) is index 11 and {@code cutime} index 13.
   */
  private static long[] stat(Path file) {
    try {
      String text = Files.readString(file);
      String[] rest = text.substring(text.lastIndexOf(')') + 2).trim().split("\\s+");
      // Only up to cstime: later fields (rsslim) can exceed a long.
      long[] fields = new long[15];
      for (int i = 1; i < fields.length; i++) {
        fields[i] = Long.parseLong(rest[i]);
      }
      return fields;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
