package dev.cascade.examples;

import static dev.cascade.examples.EmbeddedCascade.start;

import dev.cascade.core.Cascade;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Embedding Cascade's run manager in a program: start Cascade, run the demo trace on the H100 and
 * the H200 with two replicas each, wait, and print per config and per kernel the mean cycles, their
 * spread across replicas, and the simulated time.
 *
 * <pre>
 * ./mvnw -q install -DskipTests
 * ./mvnw -q -pl cascade-examples exec:java -Dexec.mainClass=dev.cascade.examples.EmbeddedRunExample
 * </pre>
 *
 * <p>It uses a new temporary data dir, deleted when it ends, or keeps its data in the folder given
 * as the first argument. {@code docs/embedding.md} walks through it.
 */
public final class EmbeddedRunExample {

  private EmbeddedRunExample() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> environment = new HashMap<>(System.getenv());
    // The demo trace is written in one go, not uploaded: no need to wait the default 10 s.
    environment.putIfAbsent("CASCADE_UPLOAD_QUIET_S", "1");
    if (args.length > 0) {
      System.out.println("Cascade data in " + args[0]);
      run(Path.of(args[0]), environment, System.out);
    } else {
      runInTemporaryDataDir(environment, System.out);
    }
  }

  /**
   * Runs the example in a new temporary data dir and deletes it at the end, whatever the end: a
   * program run to see what Cascade does leaves nothing in {@code /tmp}.
   */
  static List<ConfigResult> runInTemporaryDataDir(Map<String, String> environment, PrintStream out)
      throws Exception {
    Path dataDir = Files.createTempDirectory("cascade-example-");
    out.println(
        "Cascade data in " + dataDir + " (deleted at the end; give a folder to keep the data)");
    try {
      return run(dataDir, environment, out);
    } finally {
      deleteTree(dataDir);
    }
  }

  /** Deletes {@code root} and everything in it. */
  static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  // tag::run[]
  /**
   * Writes the demo trace into {@code dataDir} (when it has no traces), starts Cascade there, runs
   * the demo on the H100 and the H200 with two replicas each, waits for the sims, prints the
   * results to {@code out} and returns them.
   */
  public static List<ConfigResult> run(
      Path dataDir, Map<String, String> environment, PrintStream out) throws Exception {
    DemoTraces.seedIfEmpty(dataDir); // the demo trace, as `cascade serve` writes it
    try (Cascade cascade = start(dataDir, environment)) {
      // A trace runs once it is ready: its files still for the quiet period, then processed.
      Trace demo = cascade.traces().await("demo", Duration.ofMinutes(1));
      if (demo.state() != TraceState.READY) {
        throw new IllegalStateException("trace demo is " + demo.state().wireName());
      }

      Run run =
          cascade
              .runs()
              .create("demo", List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 2)));
      Run finished = cascade.runs().await(run.id(), Duration.ofMinutes(10));
      List<ConfigResult> results = cascade.results().compare(run.id());

      out.println("Run " + run.id() + " " + finished.state().wireName());
      print(results, out);
      return results;
    }
  }

  // end::run[]

  // tag::print[]
  /**
   * One row per config and kernel, then the whole trace's speedup of each config over the first.
   */
  public static void print(List<ConfigResult> results, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%-10s %-44s %2s %12s %8s %10s%n",
        "config",
        "kernel",
        "n",
        "cycles",
        "+-",
        "time us");
    for (ConfigResult config : results) {
      for (KernelComparison kernel : config.kernels()) {
        row(out, config.gpuConfig(), kernel);
      }
      row(out, config.gpuConfig(), config.total());
    }
    ConfigResult baseline = results.getFirst();
    for (ConfigResult config : results.subList(1, results.size())) {
      double speedup =
          baseline.total().simulatedTimeUs().mean() / config.total().simulatedTimeUs().mean();
      out.printf(
          Locale.ROOT,
          "%s runs the trace %.2fx as fast as %s%n",
          config.gpuConfig(),
          speedup,
          baseline.gpuConfig());
    }
  }

  private static void row(PrintStream out, String config, KernelComparison kernel) {
    String name =
        kernel.name().length() > 44 ? kernel.name().substring(0, 41) + "..." : kernel.name();
    out.printf(
        Locale.ROOT,
        "%-10s %-44s %2d %12.0f %8.0f %10.2f%n",
        config,
        name,
        kernel.n(),
        kernel.cycles().mean(),
        kernel.cycles().stdev(),
        kernel.simulatedTimeUs().mean());
  }
  // end::print[]

}
