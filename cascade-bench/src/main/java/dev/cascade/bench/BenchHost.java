package dev.cascade.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Where the benchmarks run: their folders (set by the pom) and the machine they report. */
final class BenchHost {

  private BenchHost() {}

  /** The project's root folder: {@code bench.root}, else the current folder. */
  static Path root() {
    return Path.of(System.getProperty("bench.root", ".")).toAbsolutePath().normalize();
  }

  /** The benchmarks' work folder: {@code bench.work}, else {@code cascade-bench/target/bench}. */
  static Path work(Path root) {
    return Path.of(
        System.getProperty("bench.work", root.resolve("cascade-bench/target/bench").toString()));
  }

  /** The work folder of one benchmark, absolute. */
  static Path work(String benchmark) {
    return work(root()).resolve(benchmark).toAbsolutePath();
  }

  /** Prints the cores, the load and the Java version, which the numbers depend on. */
  static void printMachine() {
    System.out.printf(
        Locale.ROOT,
        "machine: %d cores, load average %s; Java %s%n",
        Runtime.getRuntime().availableProcessors(),
        loadAverage(),
        System.getProperty("java.version"));
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
