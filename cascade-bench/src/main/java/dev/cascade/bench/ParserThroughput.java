package dev.cascade.bench;

import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.StatsListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** In-process throughput of the parser alone (no JVM start, no output), for comparison. */
final class ParserThroughput {

  private ParserThroughput() {}

  /** Parses {@code file} {@code rounds} times; returns the best MB/s. */
  static double measure(Path file, int rounds) throws IOException {
    double best = 0;
    long size = Files.size(file);
    for (int round = 0; round < rounds; round++) {
      long[] cycles = new long[1];
      long start = System.nanoTime();
      KernelStatsParser.parse(
          file,
          new StatsListener() {
            @Override
            public void onKernelFinished(KernelStats stats) {
              cycles[0] += stats.cycles();
            }
          });
      double seconds = (System.nanoTime() - start) / 1e9;
      best = Math.max(best, size / 1e6 / seconds);
    }
    return best;
  }
}
