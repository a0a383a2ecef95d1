package dev.cascade.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The post-processor benchmark (issue 14): builds a ~198 MB raw trace from a real fixture trace
 * ({@link RawTraceGenerator}), runs {@code cascade postprocess} on it as a whole process, checks
 * the {@code .traceg} it wrote, and prints wall time, CPU time, throughput and peak RSS against
 * baselines measured in the same run: a streaming copy of the same bytes ({@code cat}), a bare
 * start of the same JVM and jar ({@code --version}), and Accel-Sim's C++ {@code
 * post-traces-processing} when {@code ACCELSIM_POST_PROCESSOR} names it. It runs once more on a
 * trace of twice the size, since the memory goal holds whatever the size.
 *
 * <p>Settings (system properties, set by the pom): {@code bench.root}, {@code bench.fixtures},
 * {@code bench.work}, {@code bench.postprocess.size.mb} (default 198), {@code
 * bench.postprocess.runs} (default 3).
 */
public final class PostprocessBenchmark {

  private static final long TARGET_PEAK_BYTES = 256L << 20;
  private static final double TARGET_SPEEDUP = 2;
  private static final String REBUILDING = "cascade: building the command line";
  private static final int MAX_ATTEMPTS = 3;
  private static final String SOURCE = "accelsim/real-traces/flashinfer-prefill/kernel-1.traceg.xz";

  private PostprocessBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path root = BenchHost.root();
    Path fixtures =
        Path.of(System.getProperty("bench.fixtures", root.resolve("../shared/fixtures").toString()))
            .toAbsolutePath()
            .normalize();
    Path work = BenchHost.work(root);
    Path folder = work.resolve("postprocess").toAbsolutePath();
    long sizeMb = Long.getLong("bench.postprocess.size.mb", 198);
    int runs = Integer.getInteger("bench.postprocess.runs", 3);

    System.out.println("== cascade postprocess benchmark (issue 14) ==");
    Path source = fixtures.resolve(SOURCE);
    if (!Files.isRegularFile(source)) {
      System.out.println("skipped: no fixture trace at " + source + " (set cascade.fixtures)");
      return;
    }
    long start = System.nanoTime();
    RawTraceGenerator.RawTrace trace =
        RawTraceGenerator.generate(source, folder, sizeMb * 1_000_000);
    System.out.printf(
        Locale.ROOT,
        "raw trace: %s, %.1f MB, %d thread blocks (from %s in %.1f s); .traceg will be %.1f MB%n",
        trace.rawKernel(),
        trace.rawBytes() / 1e6,
        trace.threadBlocks(),
        source.getFileName(),
        (System.nanoTime() - start) / 1e9,
        trace.expectedBytes() / 1e6);

    Path cascade = root.resolve("cascade");
    boolean launcherUsable = buildCli(cascade);
    Path jar = root.resolve("cascade-cli/target/cascade-cli.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "no " + jar + ": the command line did not build; run ./mvnw -pl cascade-cli -am package");
    }
    String classpath = jar + File.pathSeparator + root.resolve("cascade-cli/target/lib") + "/*";
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path stdout = folder.resolve("stdout.txt");
    BenchHost.printMachine();

    StatsBenchmark.Run copy =
        best(
            "cat (streaming copy of the raw trace)",
            runs,
            trace,
            () -> {
              StatsBenchmark.Run run =
                  StatsBenchmark.run(
                      List.of("cat", trace.rawKernel().toString()),
                      Map.of(),
                      folder.resolve("copy"));
              Files.deleteIfExists(folder.resolve("copy"));
              return run;
            });
    StatsBenchmark.Run bareJvm =
        best(
            "bare JVM (cascade --version)",
            runs,
            trace,
            () ->
                StatsBenchmark.run(
                    List.of(java, "-cp", classpath, "dev.cascade.cli.CascadeCommand", "--version"),
                    Map.of(),
                    stdout));
    List<String> direct =
        List.of(
            java,
            "-cp",
            classpath,
            "dev.cascade.cli.CascadeCommand",
            "postprocess",
            trace.kernelsList().toString());
    StatsBenchmark.Run javaRun =
        best(
            "cascade postprocess (java -cp ...)",
            runs,
            trace,
            () -> checked(direct, trace, stdout));
    StatsBenchmark.Run scriptRun = null;
    if (launcherUsable) {
      List<String> launcher =
          List.of(cascade.toString(), "postprocess", trace.kernelsList().toString());
      scriptRun =
          best("./cascade postprocess", runs, trace, () -> checked(launcher, trace, stdout));
    }
    // The goal holds whatever the trace's size: the peak must not grow with it.
    Path doubledFolder = work.resolve("postprocess-doubled").toAbsolutePath();
    RawTraceGenerator.RawTrace doubled =
        RawTraceGenerator.generate(source, doubledFolder, 2 * sizeMb * 1_000_000);
    List<String> doubledCommand = new ArrayList<>(direct);
    doubledCommand.set(doubledCommand.size() - 1, doubled.kernelsList().toString());
    StatsBenchmark.Run doubledRun =
        best(
            String.format(Locale.ROOT, "same, on a %.0f MB raw trace", doubled.rawBytes() / 1e6),
            1,
            doubled,
            () -> checked(doubledCommand, doubled, stdout));
    deleteFolder(doubledFolder);
    StatsBenchmark.Run cpp = null;
    String tool = System.getenv("ACCELSIM_POST_PROCESSOR");
    if (tool == null || tool.isBlank()) {
      System.out.println(
          "post-traces-processing: skipped (set ACCELSIM_POST_PROCESSOR to Accel-Sim's"
              + " util/tracer_nvbit/tracer_tool/traces-processing/post-traces-processing)");
    } else {
      List<String> command = List.of(tool, trace.kernelsList().toString());
      cpp =
          best("post-traces-processing (C++)", runs, trace, () -> checked(command, trace, stdout));
    }

    System.out.println();
    System.out.println("== summary ==");
    summary("cat (copy)", copy, trace);
    summary("bare JVM", bareJvm, trace);
    summary("cascade postprocess", javaRun, trace);
    StatsBenchmark.Run measured = javaRun;
    if (scriptRun != null) {
      summary("./cascade postprocess", scriptRun, trace);
      measured = scriptRun.seconds() < javaRun.seconds() ? scriptRun : javaRun;
    }
    summary("on twice the size", doubledRun, doubled);
    long peak = Math.max(javaRun.peakRssBytes(), scriptRun == null ? 0 : scriptRun.peakRssBytes());
    boolean memoryMet = Math.max(peak, doubledRun.peakRssBytes()) < TARGET_PEAK_BYTES;
    String memory =
        String.format(
            Locale.ROOT,
            "%d MB peak RSS on a %.0f MB raw trace, %d MB on %.0f MB (bare JVM %d MB, cat %d MB);"
                + " %.2f s wall, %.1fx the time of cat",
            peak >> 20,
            trace.rawBytes() / 1e6,
            doubledRun.peakRssBytes() >> 20,
            doubled.rawBytes() / 1e6,
            bareJvm.peakRssBytes() >> 20,
            copy.peakRssBytes() >> 20,
            measured.seconds(),
            measured.seconds() / copy.seconds());
    System.out.println(
        "memory: " + memory + " (target < 256 MB: " + (memoryMet ? "met" : "NOT met") + ")");
    Goals goals = new Goals("postprocess");
    goals.record(GoalRow.POSTPROCESS_MEMORY, memory, memoryMet);
    if (cpp != null) {
      summary("post-traces-processing", cpp, trace);
      double speedup = cpp.seconds() / measured.seconds();
      String speed =
          String.format(
              Locale.ROOT,
              "%.1fx faster than post-traces-processing (%.2f s against %.2f s wall; cat %.2f s)",
              speedup,
              measured.seconds(),
              cpp.seconds(),
              copy.seconds());
      System.out.println("speed: " + speed);
      goals.record(GoalRow.POSTPROCESS_SPEED, speed, speedup >= TARGET_SPEEDUP);
    } else {
      System.out.println("speed against post-traces-processing: not measured");
    }
    goals.save(work);
  }

  @FunctionalInterface
  private interface Measurement {
    StatsBenchmark.Run run() throws IOException, InterruptedException;
  }

  /** Runs a measurement {@code runs} times; the fastest wall time, with the highest peak RSS. */
  private static StatsBenchmark.Run best(
      String name, int runs, RawTraceGenerator.RawTrace trace, Measurement measurement)
      throws IOException, InterruptedException {
    List<StatsBenchmark.Run> results = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      StatsBenchmark.Run run = measurement.run();
      for (int attempt = 1; run.stderr().contains(REBUILDING); attempt++) {
        if (attempt == MAX_ATTEMPTS) {
          throw new IllegalStateException(name + ": ./cascade rebuilt itself in every attempt");
        }
        System.out.println("(./cascade rebuilt the command line during the run: run again)");
        run = measurement.run();
      }
      if (run.exitCode() != 0) {
        throw new IllegalStateException(name + " failed with exit code " + run.exitCode());
      }
      System.out.printf(
          Locale.ROOT,
          "%-40s run %d: %6.2f s wall, %6.2f s cpu, %7.1f MB/s, peak RSS %4d MB%n",
          name,
          i + 1,
          run.seconds(),
          run.cpuSeconds(),
          trace.rawBytes() / 1e6 / run.seconds(),
          run.peakRssBytes() >> 20);
      results.add(run);
    }
    StatsBenchmark.Run fastest =
        results.stream().min((a, b) -> Double.compare(a.seconds(), b.seconds())).orElseThrow();
    long peak = results.stream().mapToLong(StatsBenchmark.Run::peakRssBytes).max().orElse(0);
    return new StatsBenchmark.Run(fastest.seconds(), peak, fastest.cpuSeconds(), 0, "");
  }

  /** Runs a post-processor and checks the {@code .traceg} it wrote (outside the measurement). */
  private static StatsBenchmark.Run checked(
      List<String> command, RawTraceGenerator.RawTrace trace, Path stdout)
      throws IOException, InterruptedException {
    Path output = trace.rawKernel().resolveSibling("kernel-1.traceg");
    Files.deleteIfExists(output);
    StatsBenchmark.Run run = StatsBenchmark.run(command, Map.of(), stdout);
    if (run.exitCode() == 0) {
      CRC32 crc = new CRC32();
      long length = 0;
      byte[] buffer = new byte[1 << 20];
      try (InputStream in = Files.newInputStream(output)) {
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          crc.update(buffer, 0, n);
          length += n;
        }
      }
      if (length != trace.expectedBytes() || crc.getValue() != trace.expectedCrc()) {
        throw new IllegalStateException(
            String.join(" ", command)
                + " wrote "
                + length
                + " bytes with CRC "
                + Long.toHexString(crc.getValue())
                + "; expected "
                + trace.expectedBytes()
                + " bytes with CRC "
                + Long.toHexString(trace.expectedCrc()));
      }
    }
    return run;
  }

  private static void deleteFolder(Path folder) throws IOException {
    try (var files = Files.list(folder)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(folder);
  }

  /** {@code ./cascade --version}, which builds the command line when stale; false if it failed. */
  private static boolean buildCli(Path cascade) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(cascade.toString(), "--version")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    return process.waitFor() == 0;
  }

  private static void summary(
      String name, StatsBenchmark.Run run, RawTraceGenerator.RawTrace trace) {
    System.out.printf(
        Locale.ROOT,
        "%-24s %6.2f s wall (best), %6.2f s cpu, %7.1f MB/s, peak RSS %d MB%n",
        name,
        run.seconds(),
        run.cpuSeconds(),
        trace.rawBytes() / 1e6 / run.seconds(),
        run.peakRssBytes() >> 20);
  }
}
