package dev.cascade.bench;

import dev.cascade.agent.ProcessGroups;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.EventStream;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Sim;
import dev.cascade.core.SimCommands;
import dev.cascade.core.SimEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The launch benchmark of DESIGN.md section 15: a 64-sim run from {@code POST /api/runs} to every
 * sim {@code running}, with the local launcher and the default lean sim command (the sim agent with
 * the emulator in its JVM, {@link CascadeSettings#simCommandFromEnvironment}), against 64 parallel
 * bare JVM starts ({@code java -cp DIR Hello}, compiled at run time) on the same machine in the
 * same run. Target: at most 3 times the bare starts.
 *
 * <p>The emulator runs slowly ({@code CASCADE_EMULATE_SPEED}, 10 cycles/s by default): every sim is
 * still running when the last one starts, and past its first lines (its header) prints little, so
 * the run measures launching, not output ingest (the ingest benchmark's part). One sim is launched
 * first, untimed: it creates the agent's class-data-sharing archive, as the first sim of a data dir
 * does. After each run the run is cancelled and the benchmark waits until every sim process has
 * exited (any left after 30 s get SIGKILL, by their own process group).
 *
 * <p>Run with {@code ./mvnw -Pbench -pl cascade-bench -am verify -DskipTests -Dbench=launch}.
 * Settings (system properties, set by the pom): {@code bench.work}, {@code bench.launch.sims} (64),
 * {@code bench.launch.runs} (3 measured runs; the median counts), {@code bench.launch.speed} (10).
 */
public final class LaunchBenchmark {

  private static final double TARGET_RATIO = 3;
  private static final Pattern STATE = Pattern.compile("\"state\":\"([a-z]+)\"");
  private static final Pattern FIRST_HEARTBEAT =
      Pattern.compile("first heartbeat was answered (\\d+) ms after the agent's JVM started");
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

  /**
   * One measured launch.
   *
   * @param allLaunched from the POST to the start of the last launch call (the launch queue's part:
   *     at most {@code CASCADE_MAX_LAUNCHES}, 8, in flight)
   * @param allRunning from the POST to the last sim's first heartbeat
   * @param firstRunning from the POST to the first sim's first heartbeat
   * @param agentMedianMs the agents' own median time from JVM start to first heartbeat answered
   * @param agentMaxMs the slowest agent's
   * @param stopSeconds from the cancel to every sim process gone
   * @param agentCpu CPU seconds all the sims' processes had used when the last one was running
   * @param settledCpu the same, {@code settle} later (NaN when not asked)
   * @param appCpu CPU seconds this JVM (the app, the benchmark) used from the POST to then
   */
  record Launch(
      int sims,
      double allLaunched,
      double launchCallMedianMs,
      double allRunning,
      double firstRunning,
      double agentMedianMs,
      double agentMaxMs,
      double stopSeconds,
      double agentCpu,
      double settledCpu,
      double appCpu) {}

  private LaunchBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path work = BenchHost.work("launch");
    int sims = Integer.getInteger("bench.launch.sims", 64);
    int runs = Integer.getInteger("bench.launch.runs", 3);
    String speed = System.getProperty("bench.launch.speed", "10");
    Files.createDirectories(work);

    System.out.println("== launch benchmark (DESIGN.md section 15) ==");
    BenchHost.printMachine();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    // -- The baseline: bare JVM starts. -------------------------------------------------------
    List<String> bare = bareCommand(java, work.resolve("hello"));
    System.out.println("baseline: " + sims + " x `" + String.join(" ", bare) + "` in parallel");
    parallelStarts(bare, sims); // untimed: brings the JDK's files into the page cache
    List<Double> baseline = new ArrayList<>();
    double bareCpuMs = Double.NaN;
    for (int i = 0; i < runs; i++) {
      double cpuBefore = CpuTime.reapedChildren();
      double seconds = parallelStarts(bare, sims);
      baseline.add(seconds);
      bareCpuMs = (CpuTime.reapedChildren() - cpuBefore) * 1000 / sims;
      System.out.printf(
          Locale.ROOT,
          "  bare starts, run %d: %.2f s, %.1f CPU-s in all (%.0f ms each)%n",
          i + 1,
          seconds,
          bareCpuMs * sims / 1000,
          bareCpuMs);
    }

    // -- Cascade. --------------------------------------------------------------------------------
    Path dataDir = work.resolve("data");
    Map<String, String> environment = Map.of("CASCADE_EMULATE_SPEED", speed);
    SimCommands.Choice choice = CascadeSettings.simCommandFromEnvironment(environment, dataDir);
    List<Launch> launches = new ArrayList<>();
    double aloneCpuMs;
    double aloneSettledMs;
    try (EmbeddedCascade app =
        EmbeddedCascade.start(
            dataDir,
            // It measures sims launched all at once: a slot for each, none waits its turn.
            new LocalLauncher(Duration.ofSeconds(5), Math.min(sims, LocalLauncher.MAX_SLOTS)),
            choice.command(),
            environment)) {
      String config = app.configs().get(0);
      System.out.println("Cascade: " + app.url() + ", data in " + dataDir);
      System.out.println("sim command (" + choice.description() + "):");
      System.out.println("  " + String.join(" ", choice.command()));
      System.out.println(
          "  with CASCADE_EMULATE_SPEED=" + speed + " (cycles/s, so sims keep running)");

      Path archive = dataDir.resolve("work").resolve("sim-agent.jsa");
      Launch first = launch(app, config, 1, Duration.ZERO);
      System.out.printf(
          Locale.ROOT,
          "first sim of the data dir (untimed; makes the class-data archive): running after %.2f"
              + " s; archive %s%n",
          first.allRunning(),
          Files.exists(archive)
              ? "written (" + Files.size(archive) / 1024 + " KiB)"
              : "NOT written");
      Launch alone = launch(app, config, 1, Duration.ofSeconds(3));
      System.out.printf(
          Locale.ROOT,
          "one sim alone (archive in place): running after %.2f s; its JVM start to first heartbeat"
              + " answered %.0f ms; it had used %.0f ms of CPU then, %.0f ms 3 s later (a bare JVM"
              + " start: %.0f ms)%n",
          alone.allRunning(),
          alone.agentMedianMs(),
          alone.agentCpu() * 1000,
          alone.settledCpu() * 1000,
          bareCpuMs);
      aloneCpuMs = alone.agentCpu() * 1000;
      aloneSettledMs = alone.settledCpu() * 1000;
      for (int i = 0; i < runs; i++) {
        Launch launch = launch(app, config, sims, Duration.ZERO);
        launches.add(launch);
        System.out.printf(
            Locale.ROOT,
            "  %d-sim run %d: all launch calls returned after %.2f s (median call %.0f ms), first running"
                + " after %.2f s, all running after %.2f s; agents' JVM start to first heartbeat answered: median %.0f ms,"
                + " max %.0f ms; CPU by then: sims %.1f CPU-s (%.0f ms each), this JVM %.1f CPU-s;"
                + " stopped in %.1f s%n",
            sims,
            i + 1,
            launch.allLaunched(),
            launch.launchCallMedianMs(),
            launch.firstRunning(),
            launch.allRunning(),
            launch.agentMedianMs(),
            launch.agentMaxMs(),
            launch.agentCpu(),
            launch.agentCpu() * 1000 / sims,
            launch.appCpu(),
            launch.stopSeconds());
      }
    }

    double bareMedian = median(baseline);
    double cascadeMedian = median(launches.stream().map(Launch::allRunning).toList());
    double ratio = cascadeMedian / bareMedian;
    System.out.println();
    System.out.println("== summary ==");
    System.out.printf(
        Locale.ROOT,
        "%d parallel bare JVM starts:        %6.2f s (median of %d)%n",
        sims,
        bareMedian,
        runs);
    System.out.printf(
        Locale.ROOT,
        "%d-sim run, POST to all running:    %6.2f s (median of %d)%n",
        sims,
        cascadeMedian,
        runs);
    System.out.printf(
        Locale.ROOT,
        "ratio:                               %6.2f   (target <= %.0f: %s)%n",
        ratio,
        TARGET_RATIO,
        ratio <= TARGET_RATIO
            ? "met"
            : String.format(Locale.ROOT, "NOT met, %.1fx over", ratio / TARGET_RATIO));
    Goals goals = new Goals("launch");
    goals.record(
        GoalRow.LAUNCH_64,
        String.format(
            Locale.ROOT,
            "%.2fx: %d-sim run %.2f s to all running, %d bare JVM starts %.2f s (medians of %d;"
                + " before this work 11.9x, 14.8x on this loaded machine)",
            ratio,
            sims,
            cascadeMedian,
            sims,
            bareMedian,
            runs),
        ratio <= TARGET_RATIO);
    goals.save(work.getParent()); // the -Pbench run's folder, where GoalsSummary reads
    double simCpuMs =
        median(launches.stream().map(launch -> launch.agentCpu() * 1000 / sims).toList());
    System.out.printf(
        Locale.ROOT,
        "CPU per start: bare JVM %.0f ms; sim by the time all %d ran %.0f ms (median), one sim"
            + " alone %.0f ms at its first heartbeat and %.0f ms 3 s later; %d sims at %.0f ms need"
            + " %.1f s of %d cores%n",
        bareCpuMs,
        sims,
        simCpuMs,
        aloneCpuMs,
        aloneSettledMs,
        sims,
        simCpuMs,
        sims * simCpuMs / 1000 / Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().availableProcessors());
  }

  /** {@code java -cp DIR Hello}, with Hello compiled now; {@code java -version} without javac. */
  private static List<String> bareCommand(String java, Path dir) throws IOException {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    if (compiler == null) {
      return List.of(java, "-version");
    }
    Files.createDirectories(dir);
    Path source = dir.resolve("Hello.java");
    Files.writeString(
        source,
        "public class Hello { public static void main(String[] args) {"
            + " System.out.println(\"hello\"); } }\n");
    int exit =
        compiler.run(null, null, null, "--release", "21", "-d", dir.toString(), source.toString());
    if (exit != 0) {
      throw new IllegalStateException("javac Hello.java failed with exit code " + exit);
    }
    return List.of(java, "-cp", dir.toString(), "Hello");
  }

  /**
   * Starts {@code count} processes at once and waits for all; seconds from first start to last
   * exit.
   */
  private static double parallelStarts(List<String> command, int count)
      throws IOException, InterruptedException {
    List<Process> processes = new ArrayList<>();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < count; i++) {
        processes.add(
            new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start());
      }
      for (Process process : processes) {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("a bare JVM start took over a minute");
        }
        if (process.exitValue() != 0) {
          throw new IllegalStateException(
              "`" + String.join(" ", command) + "` exited with " + process.exitValue());
        }
      }
      return (System.nanoTime() - start) / 1e9;
    } finally {
      for (Process process : processes) {
        if (process.isAlive()) {
          process.destroyForcibly();
        }
      }
    }
  }

  /**
   * Creates a run of {@code count} sims on {@code config} through {@code POST /api/runs}, follows
   * its events until every sim is running, then cancels it and waits until every sim process has
   * exited.
   */
  private static Launch launch(EmbeddedCascade app, String config, int count, Duration settle)
      throws IOException, InterruptedException {
    double appCpuBefore = CpuTime.self();
    Instant posted = Instant.now();
    String runId;
    try (HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create(app.url() + "/api/runs"))
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          String.format(
                              Locale.ROOT,
                              "{\"trace_id\": \"%s\", \"entries\": [{\"gpu_config\": \"%s\","
                                  + " \"count\": %d}]}",
                              app.trace.id(),
                              config,
                              count)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 201) {
        throw new IllegalStateException(
            "POST /api/runs answered " + response.statusCode() + ": " + response.body());
      }
      String location = response.headers().firstValue("Location").orElseThrow();
      runId = location.substring(location.lastIndexOf('/') + 1);
    }
    Map<String, Instant> launched = new HashMap<>();
    Map<String, Instant> running = new HashMap<>();
    double stopped;
    double agentCpu;
    double settledCpu = Double.NaN;
    double appCpu;
    try {
      try (EventStream events = app.cascade.runs().events(runId, 0)) {
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        while (running.size() < count) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                running.size() + " of " + count + " sims running after " + RUN_TIMEOUT);
          }
          Optional<SimEvent> next = events.next(Duration.ofMillis(500));
          if (next.isEmpty() || next.get().kind() != SimEvent.Kind.SIM) {
            continue;
          }
          SimEvent event = next.get();
          Matcher state = STATE.matcher(event.data());
          if (!state.find()) {
            continue;
          }
          switch (state.group(1)) {
            case "launching" -> launched.putIfAbsent(event.simId(), event.at());
            case "running" -> running.putIfAbsent(event.simId(), event.at());
            case "failed", "cancelled", "succeeded", "lost" ->
                throw new IllegalStateException(
                    "sim " + event.simId() + " became " + state.group(1) + ": " + event.data());
            default -> {
              // pending
            }
          }
        }
      }
      appCpu = CpuTime.self() - appCpuBefore;
      agentCpu = simsCpu(app, runId);
      if (!settle.isZero()) {
        Thread.sleep(settle);
        settledCpu = simsCpu(app, runId);
      }
    } finally {
      stopped = stopRun(app, runId);
    }
    // launched_at is stamped when the launch call returned.
    Instant lastLaunched = posted;
    List<Double> callMs = new ArrayList<>();
    for (Sim sim : app.cascade.runs().get(runId).sims()) {
      if (sim.launchedAt() != null && sim.launchedAt().isAfter(lastLaunched)) {
        lastLaunched = sim.launchedAt();
      }
      if (sim.launchedAt() != null && launched.containsKey(sim.id())) {
        callMs.add(seconds(launched.get(sim.id()), sim.launchedAt()) * 1000);
      }
    }
    Instant lastRunning = running.values().stream().max(Instant::compareTo).orElseThrow();
    Instant firstRunning = running.values().stream().min(Instant::compareTo).orElseThrow();
    List<Double> agentMs = agentStartTimes(app, runId);
    return new Launch(
        count,
        seconds(posted, lastLaunched),
        callMs.isEmpty() ? Double.NaN : median(callMs),
        seconds(posted, lastRunning),
        seconds(posted, firstRunning),
        agentMs.isEmpty() ? Double.NaN : median(agentMs),
        agentMs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
        stopped,
        agentCpu,
        settledCpu,
        appCpu);
  }

  /** CPU seconds used so far by the run's sim processes that are still alive. */
  private static double simsCpu(EmbeddedCascade app, String runId) {
    double cpu = 0;
    for (Sim sim : app.cascade.runs().get(runId).sims()) {
      if (sim.launcherRef() != null) {
        cpu += CpuTime.process(Long.parseLong(sim.launcherRef()));
      }
    }
    return cpu;
  }

  /**
   * Cancels the run and waits until every process the launcher started for it has exited; returns
   * the seconds that took. Groups still alive after 30 s get SIGKILL.
   */
  private static double stopRun(EmbeddedCascade app, String runId) throws InterruptedException {
    long start = System.nanoTime();
    app.cascade.runs().cancel(runId);
    List<Long> pids = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      pids.clear();
      for (Sim sim : app.cascade.runs().get(runId).sims()) {
        if (sim.launcherRef() != null) {
          pids.add(Long.parseLong(sim.launcherRef()));
        }
      }
      boolean anyAlive =
          pids.stream()
              .anyMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
      if (!anyAlive && pids.stream().noneMatch(ProcessGroups::isAlive)) {
        break;
      }
      if (System.nanoTime() > deadline) {
        for (long pid : pids) {
          if (ProcessGroups.isAlive(pid)) {
            System.out.println(
                "sim process group " + pid + " still alive 30 s after cancel: SIGKILL");
            ProcessGroups.terminate(pid, Duration.ZERO);
          }
        }
        break;
      }
      Thread.sleep(50);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** What each agent wrote: from its JVM's start to its first heartbeat answered, in ms. */
  private static List<Double> agentStartTimes(EmbeddedCascade app, String runId)
      throws IOException {
    List<Double> times = new ArrayList<>();
    Path folder = app.dataDir().resolve("work").resolve("sims");
    for (Sim sim : app.cascade.runs().get(runId).sims()) {
      Path out = folder.resolve(sim.id() + ".out");
      if (Files.exists(out)) {
        Matcher matcher = FIRST_HEARTBEAT.matcher(Files.readString(out, StandardCharsets.UTF_8));
        if (matcher.find()) {
          times.add(Double.parseDouble(matcher.group(1)));
        }
      }
    }
    return times;
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e9;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
