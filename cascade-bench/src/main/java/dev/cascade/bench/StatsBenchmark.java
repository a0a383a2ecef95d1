package dev.cascade.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The stats benchmark of DESIGN.md section 15: builds a large Accel-Sim log from the fixture logs,
 * runs {@code cascade stats --json} on it as a whole process, and prints throughput, wall time and
 * peak memory, and the ratio to Accel-Sim's {@code get_stats.py -k -K} on the same file when {@code
 * ACCELSIM_GET_STATS} names that script (skipped otherwise).
 *
 * <p>Run with {@code ./mvnw -Pbench -pl cascade-bench -am verify -DskipTests}. Settings (system
 * properties, set by the pom): {@code bench.root}, {@code bench.fixtures}, {@code bench.work},
 * {@code bench.stats.size.mb} (default 200), {@code bench.stats.runs} (default 3).
 */
public final class StatsBenchmark {

  private static final double TARGET_RATIO = 30;

  /** The fleet-scale table's goal for the same ratio (issue 14, {@link GoalRow#STATS_SPEED}). */
  private static final double FLEET_TARGET_RATIO = 60;

  private static final long TARGET_PEAK_BYTES = 256L << 20;

  /** One measured process run. */
  record Run(double seconds, long peakRssBytes, double cpuSeconds, int exitCode, String stderr) {}

  private static final String REBUILDING = "cascade: building the command line";
  private static final int MAX_ATTEMPTS = 5;

  private static Path cascade;

  private StatsBenchmark() {}

  /**
   * {@code ./cascade --version}: builds the command line when it is stale (outside any
   * measurement). Returns false when that failed.
   */
  private static boolean buildCli() throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(cascade.toString(), "--version")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    return process.waitFor() == 0;
  }

  public static void main(String[] args) throws Exception {
    Path root = BenchHost.root();
    Path fixtures =
        Path.of(System.getProperty("bench.fixtures", root.resolve("../shared/fixtures").toString()))
            .toAbsolutePath()
            .normalize();
    Path work = BenchHost.work(root);
    long sizeMb = Long.getLong("bench.stats.size.mb", 200);
    int runs = Integer.getInteger("bench.stats.runs", 3);
    Path realLogs = fixtures.resolve("accelsim/real-logs");

    System.out.println("== cascade stats benchmark (DESIGN.md section 15) ==");
    if (!Files.isDirectory(realLogs)) {
      System.out.println("skipped: no fixture logs at " + realLogs + " (set cascade.fixtures)");
      return;
    }
    Files.createDirectories(work);

    long start = System.nanoTime();
    BigLogGenerator.BigLog log =
        BigLogGenerator.generate(realLogs, work.resolve("accelsim-big.log"), sizeMb * 1_000_000);
    System.out.printf(
        Locale.ROOT,
        "log: %s, %.1f MB, %d kernels (built from the fixture logs in %.1f s)%n",
        log.file(),
        log.bytes() / 1e6,
        log.kernels(),
        (System.nanoTime() - start) / 1e9);

    cascade = root.resolve("cascade");
    boolean launcherUsable = buildCli();
    Path jar = root.resolve("cascade-cli/target/cascade-cli.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "no " + jar + ": the command line did not build; run ./mvnw -pl cascade-cli -am package");
    }
    if (!launcherUsable) {
      System.out.println(
          "./cascade could not rebuild the command line (a source does not compile?): measuring"
              + " the existing jar only");
    }
    Path lib = root.resolve("cascade-cli/target/lib");
    Path json = work.resolve("stats.json");

    List<String> direct =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            jar + File.pathSeparator + lib + File.separator + "*",
            "dev.cascade.cli.CascadeCommand",
            "stats",
            "--json",
            log.file().toString());
    List<String> launcher =
        List.of(root.resolve("cascade").toString(), "stats", "--json", log.file().toString());

    System.out.printf(
        Locale.ROOT,
        "machine: %d cores, load average %s%n",
        Runtime.getRuntime().availableProcessors(),
        BenchHost.loadAverage());
    CliStartup.Figures startup = null;
    if (launcherUsable) {
      startup =
          CliStartup.measure(
              cascade,
              direct.subList(0, 4),
              realLogs.resolve("A30MIG1g_l1_lat_1kernel.accelsim.log"),
              Math.max(5, runs));
    }
    Run javaRun =
        Objects.requireNonNull(
            measure("cascade stats --json (java -cp ...)", direct, json, runs, log.bytes()));
    verify(json, log);
    Run scriptRun = null;
    if (launcherUsable) {
      scriptRun = measure("./cascade stats --json", launcher, json, runs, log.bytes());
      if (scriptRun != null) {
        verify(json, log);
      }
    }
    double parserOnly = ParserThroughput.measure(log.file(), 3);
    System.out.printf(
        Locale.ROOT,
        "KernelStatsParser alone, in this JVM (best of 3, no output): %.0f MB/s%n",
        parserOnly);

    String getStats = System.getenv("ACCELSIM_GET_STATS");
    Run baseline = null;
    if (getStats == null || getStats.isBlank()) {
      System.out.println(
          "get_stats.py: skipped (set ACCELSIM_GET_STATS to Accel-Sim's"
              + " util/job_launching/get_stats.py to measure the ratio)");
    } else {
      baseline = measureGetStats(Path.of(getStats), log, work);
    }

    System.out.println();
    System.out.println("== summary ==");
    summary("cascade stats --json", javaRun, log.bytes());
    Run measured = javaRun;
    if (scriptRun != null) {
      summary("./cascade stats --json", scriptRun, log.bytes());
      measured = scriptRun;
    }
    boolean memoryOk =
        Math.max(javaRun.peakRssBytes(), measured.peakRssBytes()) < TARGET_PEAK_BYTES;
    System.out.printf(Locale.ROOT, "peak memory under 256 MB: %s%n", memoryOk ? "yes" : "NO");
    if (startup != null) {
      System.out.printf(
          Locale.ROOT,
          "./cascade start-up (1-kernel log): %.3f s with the class cache, %.3f s without"
              + " (%.2fx); java -cp alone %.3f s%n",
          startup.withCache(),
          startup.withoutCache(),
          startup.withoutCache() / startup.withCache(),
          startup.plainJava());
    }
    if (baseline != null) {
      summary("get_stats.py -k -K", baseline, log.bytes());
      double ratio = baseline.seconds() / measured.seconds();
      System.out.printf(
          Locale.ROOT,
          "ratio get_stats.py / cascade stats: %.1fx (target %.0fx: %s); via java -cp: %.1fx%n",
          ratio,
          TARGET_RATIO,
          ratio >= TARGET_RATIO ? "met" : "NOT met",
          baseline.seconds() / javaRun.seconds());
      Goals goals = new Goals("stats");
      goals.record(
          GoalRow.STATS_SPEED,
          String.format(
              Locale.ROOT,
              "%.1fx faster than get_stats.py -k -K (%.2f s against %.2f s wall), peak RSS %d MB",
              ratio,
              measured.seconds(),
              baseline.seconds(),
              measured.peakRssBytes() >> 20),
          ratio >= FLEET_TARGET_RATIO);
      goals.save(work);
    } else {
      System.out.println("ratio to get_stats.py: skipped (ACCELSIM_GET_STATS not set)");
    }
  }

  /**
   * Runs {@code command} {@code runs} times, stdout to {@code output}; returns the median run, or
   * null when {@code ./cascade} could not rebuild itself.
   */
  private static Run measure(String name, List<String> command, Path output, int runs, long bytes)
      throws IOException, InterruptedException {
    List<Run> results = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Run run = null;
      for (int attempt = 1; run == null; attempt++) {
        // ./cascade rebuilds when a source changed (others may be editing): build first, and
        // throw a run away when it rebuilt anyway.
        if (command.get(0).equals(cascade.toString()) && !buildCli()) {
          System.out.println(
              "./cascade could not rebuild the command line (a source does not compile?):"
                  + " skipping its measurement");
          return null;
        }
        run = run(command, Map.of(), output);
        if (run.stderr().contains(REBUILDING)) {
          if (attempt == MAX_ATTEMPTS) {
            System.out.println("./cascade rebuilt itself in every attempt: skipping it");
            return null;
          }
          System.out.println("(a source changed and ./cascade rebuilt during the run: run again)");
          run = null;
        }
      }
      if (run.exitCode() != 0) {
        throw new IllegalStateException(name + " failed with exit code " + run.exitCode());
      }
      System.out.printf(
          Locale.ROOT,
          "%-36s run %d: %6.2f s wall, %6.2f s cpu, %7.1f MB/s, peak RSS %4d MB%n",
          name,
          i + 1,
          run.seconds(),
          run.cpuSeconds(),
          bytes / 1e6 / run.seconds(),
          run.peakRssBytes() >> 20);
      results.add(run);
    }
    results.sort((a, b) -> Double.compare(a.seconds(), b.seconds()));
    Run median = results.get(results.size() / 2);
    long peak = results.stream().mapToLong(Run::peakRssBytes).max().orElse(0);
    return new Run(median.seconds(), peak, median.cpuSeconds(), 0, "");
  }

  /**
   * Runs a process to its end, stdout to {@code output}, stderr kept (and echoed); measures wall
   * time, CPU time and peak RSS with {@code /usr/bin/time} when present, else by polling {@code
   * /proc/PID/status}.
   */
  static Run run(List<String> command, Map<String, String> environment, Path output)
      throws IOException, InterruptedException {
    Path time = Path.of("/usr/bin/time");
    Path report = Files.createTempFile("bench-time", ".txt");
    Path errors = Files.createTempFile("bench-stderr", ".txt");
    try {
      List<String> full = new ArrayList<>();
      boolean timed = Files.isExecutable(time);
      if (timed) {
        full.addAll(List.of(time.toString(), "-o", report.toString(), "-f", "%e %M %U %S"));
      }
      full.addAll(command);
      ProcessBuilder builder =
          new ProcessBuilder(full).redirectOutput(output.toFile()).redirectError(errors.toFile());
      builder.environment().putAll(environment);
      long start = System.nanoTime();
      Process process = builder.start();
      long peak = 0;
      while (!process.waitFor(5, TimeUnit.MILLISECONDS)) {
        peak = Math.max(peak, vmHwm(process.pid()));
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpu = Double.NaN;
      if (timed) {
        String[] fields = Files.readString(report).trim().split("\\s+");
        String[] last = Arrays.copyOfRange(fields, fields.length - 4, fields.length);
        seconds = Double.parseDouble(last[0]);
        peak = Long.parseLong(last[1]) * 1024;
        cpu = Double.parseDouble(last[2]) + Double.parseDouble(last[3]);
      }
      String stderr = Files.readString(errors, StandardCharsets.UTF_8);
      System.err.print(stderr);
      return new Run(seconds, peak, cpu, process.exitValue(), stderr);
    } finally {
      Files.deleteIfExists(report);
      Files.deleteIfExists(errors);
    }
  }

  /** The peak resident set of a process in bytes, 0 when unknown. */
  private static long vmHwm(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process ended between two polls
    }
    return 0;
  }

  /** Checks the JSON names every kernel of the log and is complete. */
  private static void verify(Path json, BigLogGenerator.BigLog log) throws IOException {
    long kernels = 0;
    byte[] needle = "\"instance\":".getBytes(StandardCharsets.US_ASCII);
    byte[] buffer = new byte[1 << 20];
    int matched = 0;
    try (InputStream in = Files.newInputStream(json)) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        for (int i = 0; i < n; i++) {
          matched = buffer[i] == needle[matched] ? matched + 1 : buffer[i] == needle[0] ? 1 : 0;
          if (matched == needle.length) {
            kernels++;
            matched = 0;
          }
        }
      }
    }
    String tail = tail(json);
    if (kernels != log.kernels() || !tail.endsWith("\"reason\":\"exit detected\"}}]}\n")) {
      throw new IllegalStateException(
          "cascade stats --json printed "
              + kernels
              + " kernels (expected "
              + log.kernels()
              + ") ending with '"
              + tail
              + "'");
    }
  }

  private static String tail(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int from = Math.max(0, bytes.length - 60);
    return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
  }

  /**
   * Runs {@code get_stats.py -k -K} on the big log: lays out the run directory and job logfile it
   * expects ({@code RUN/APP/ARGS/CONFIG/EXE-ARGS.BUILD.oJOBID}), and puts a stand-in {@code nvcc}
   * on the PATH when there is none (the script asks it for the CUDA version).
   */
  private static Run measureGetStats(Path script, BigLogGenerator.BigLog log, Path work)
      throws IOException, InterruptedException {
    if (!Files.isRegularFile(script)) {
      System.out.println("get_stats.py: skipped (ACCELSIM_GET_STATS='" + script + "' is no file)");
      return null;
    }
    Path runDir = work.resolve("get_stats-run");
    Path outputDir = Files.createDirectories(runDir.resolve("cascade-bench/big/BENCH"));
    Path outFile = outputDir.resolve("cascade-bench-big.accelsim-commit-0-commit-0.o1");
    Files.deleteIfExists(outFile);
    Files.createSymbolicLink(outFile, log.file().toAbsolutePath());
    Path logfile = work.resolve("get_stats-logfile.txt");
    Files.writeString(
        logfile, "0 1 cascade-bench big BENCH cascade-bench.accelsim-commit-0-commit-0\n");

    Map<String, String> environment = new java.util.HashMap<>();
    if (!onPath("nvcc")) {
      Path bin = Files.createDirectories(work.resolve("fake-bin"));
      Path nvcc = bin.resolve("nvcc");
      Files.writeString(
          nvcc, "#!/bin/sh\necho 'Cuda compilation tools, release 11.0, V11.0.221'\n");
      Files.setPosixFilePermissions(nvcc, PosixFilePermissions.fromString("rwxr-xr-x"));
      environment.put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
      System.out.println("get_stats.py: no nvcc on PATH; using a stand-in that says CUDA 11.0");
    }
    List<String> command =
        List.of(
            "python3",
            script.toString(),
            "-l",
            logfile.toString(),
            "-r",
            runDir.toString(),
            "-k",
            "-K");
    Path csv = work.resolve("get_stats.csv");
    Run run = run(command, environment, csv);
    System.out.printf(
        Locale.ROOT,
        "%-36s run 1: %6.2f s wall, %6.2f s cpu, %7.1f MB/s, peak RSS %4d MB, exit %d, output %s%n",
        "get_stats.py -k -K",
        run.seconds(),
        run.cpuSeconds(),
        log.bytes() / 1e6 / run.seconds(),
        run.peakRssBytes() >> 20,
        run.exitCode(),
        csv);
    if (run.exitCode() != 0 || Files.size(csv) == 0) {
      System.out.println("get_stats.py: failed or printed nothing; ratio not measured");
      return null;
    }
    return run;
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  private static void summary(String name, Run run, long bytes) {
    System.out.printf(
        Locale.ROOT,
        "%-24s %6.2f s wall (median), %6.2f s cpu, %7.1f MB/s, peak RSS %d MB%n",
        name,
        run.seconds(),
        run.cpuSeconds(),
        bytes / 1e6 / run.seconds(),
        run.peakRssBytes() >> 20);
  }
}
