package dev.cascade.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command line's own start-up, which is most of a short command's time: {@code ./cascade stats
 * --json} on a one-kernel log, with the CLI's class cache ({@code ./cascade}'s AOT cache or
 * class-data-sharing archive) and without it ({@code CASCADE_CLI_CACHE=off}), and the same command
 * as a plain {@code java -cp ...} for reference. Medians of {@code runs}; the cache is made by one
 * untimed run first, as the first command after a build makes it.
 */
final class CliStartup {

  /** Median wall seconds of each way of starting. */
  record Figures(double withoutCache, double withCache, double plainJava) {}

  private CliStartup() {}

  static Figures measure(Path cascade, List<String> plainJava, Path smallLog, int runs)
      throws IOException, InterruptedException {
    List<String> script = List.of(cascade.toString(), "stats", "--json", smallLog.toString());
    List<String> java = new ArrayList<>(plainJava);
    java.addAll(List.of("stats", "--json", smallLog.toString()));
    time(script, Map.of(), 1); // untimed: makes the cache when the build is new
    double without = time(script, Map.of("CASCADE_CLI_CACHE", "off"), runs);
    double with = time(script, Map.of(), runs);
    double plain = time(java, Map.of(), runs);
    System.out.printf(
        Locale.ROOT,
        "start-up, ./cascade stats --json on a 1-kernel log (median of %d): %.3f s without the"
            + " class cache, %.3f s with it (%.2fx faster); plain java -cp: %.3f s%n",
        runs,
        without,
        with,
        without / with,
        plain);
    return new Figures(without, with, plain);
  }

  private static double time(List<String> command, Map<String, String> env, int runs)
      throws IOException, InterruptedException {
    List<Double> seconds = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.INHERIT);
      builder.environment().putAll(env);
      long start = System.nanoTime();
      Process process = builder.start();
      int exit = process.waitFor();
      seconds.add((System.nanoTime() - start) / 1e9);
      if (exit != 0) {
        throw new IllegalStateException("`" + String.join(" ", command) + "` exited with " + exit);
      }
    }
    seconds.sort(null);
    return seconds.get(seconds.size() / 2);
  }
}
