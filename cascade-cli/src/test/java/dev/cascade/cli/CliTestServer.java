package dev.cascade.cli;

import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Heartbeat;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.SimState;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.core.internal.trace.TraceStore;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * An embedded Cascade and its HTTP server for the client commands' tests, on a data dir holding a
 * ready trace {@code demo} of three kernels, a sample {@code sample} and a failed upload {@code
 * broken}. Sims are launched by a {@link FakeLauncher} that starts nothing; the test plays each
 * sim's side through the core API ({@link #heartbeat}, {@link #finishKernel}, {@link #succeed}),
 * with Accel-Sim output the server parses for progress and results.
 */
final class CliTestServer implements AutoCloseable {

  static final Duration WAIT = Duration.ofSeconds(60);
  static final int KERNELS = 3;

  final FakeLauncher launcher = new FakeLauncher();
  final Engine engine;
  final HttpApi server;
  final Map<String, String> environment = new HashMap<>();
  private final Map<String, Integer> chunks = new ConcurrentHashMap<>();
  private final Map<String, Long> totalCycles = new ConcurrentHashMap<>();
  private final Map<String, Integer> kernelsSent = new ConcurrentHashMap<>();

  CliTestServer(Path dataDir) throws Exception {
    this(dataDir, ServerSettings.defaults().withPort(0));
  }

  CliTestServer(Path dataDir, ServerSettings settings) throws Exception {
    writeTrace(
        dataDir,
        "demo",
        KERNELS,
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\","
            + " \"model_name\": \"facebook/opt-125m\", \"suggested_sim_config\": \"SM90_H100\","
            + " \"traced_layers\": [\"model.decoder.layers.10.self_attn\"]}");
    writeTrace(dataDir, "sample", 2, "{\"status\": \"complete\", \"sample\": true}");
    writeTrace(dataDir, "broken", 1, "{\"status\": \"failed\", \"error\": \"profiler crashed\"}");
    engine =
        Engine.open(
            CascadeSettings.builder()
                .dataDir(dataDir)
                .launcher(launcher)
                .catalog(GpuConfigCatalog.builtIn())
                .uploadQuietPeriod(Duration.ofMillis(100))
                .traceRescanInterval(Duration.ofMillis(200))
                .simCommand(List.of("true"))
                .mainUrl("http://127.0.0.1:9")
                .settings());
    server = HttpApi.start(engine, settings);
    engine.startLaunching("http://127.0.0.1:9");
    environment.put("CASCADE_URL", server.url());
    awaitTrace("demo", TraceState.READY);
    awaitTrace("sample", TraceState.READY);
    awaitTrace("broken", TraceState.FAILED);
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      engine.close();
    }
  }

  // ------------------------------------------------------------------ running the command

  /** What one command printed, and its exit code. */
  record Result(int exit, String out, String err) {}

  /** Runs {@code cascade args...} in-process against this server (via CASCADE_URL). */
  Result run(String... args) {
    WatchedOutput out = new WatchedOutput();
    return run(out, args);
  }

  Result run(WatchedOutput out, String... args) {
    StringWriter err = new StringWriter();
    int exit = commandLine(environment, out, err).execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  /** Cascade's command line with {@code environment} as the client commands' environment. */
  static CommandLine commandLine(Map<String, String> environment, Writer out, Writer err) {
    Map<String, String> copy = Map.copyOf(environment);
    CommandLine commandLine =
        new CommandLine(
            new CascadeCommand(),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                K created = CommandLine.defaultFactory().create(type);
                if (created instanceof ApiOptions options) {
                  options.environment = copy;
                }
                return created;
              }
            });
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine;
  }

  /** Output that a test can wait on: {@link #await} returns once the text has been written. */
  static final class WatchedOutput extends Writer {
    private final StringBuilder text = new StringBuilder();

    @Override
    public synchronized void write(char[] buffer, int offset, int length) {
      text.append(buffer, offset, length);
      notifyAll();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    /**
     * Waits until the output contains {@code expected}; fails with the output after {@link #WAIT}.
     */
    synchronized void await(String expected) throws InterruptedException, TimeoutException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (text.indexOf(expected) < 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new TimeoutException("no \"" + expected + "\" in the output:\n" + text);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    @Override
    public synchronized String toString() {
      return text.toString();
    }
  }

  // ------------------------------------------------------------------ playing the sims

  /** The next sim launched, within {@link #WAIT}. */
  SimLaunch nextLaunch() throws InterruptedException {
    SimLaunch launch = launcher.launches.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    if (launch == null) {
      throw new AssertionError("no sim was launched within " + WAIT);
    }
    return launch;
  }

  /** The next {@code count} sims launched. */
  List<SimLaunch> nextLaunches(int count) throws InterruptedException {
    List<SimLaunch> launches = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      launches.add(nextLaunch());
    }
    return launches;
  }

  /**
   * The next {@code count} sims launched, by {@code CONFIG#REPLICA} ({@code SM90_H100#0}): sims
   * launch concurrently, in no set order.
   */
  Map<String, SimLaunch> nextLaunchesByName(int count) throws InterruptedException {
    Map<String, SimLaunch> byName = new HashMap<>();
    for (SimLaunch launch : nextLaunches(count)) {
      byName.put(launch.environment().get("CASCADE_GPU_CONFIG") + "#" + launch.replica(), launch);
    }
    return byName;
  }

  /** A {@code running} heartbeat, with the Accel-Sim banner as the sim's first chunk. */
  void heartbeat(SimLaunch sim) {
    if (chunks.putIfAbsent(sim.simId(), 0) == null) {
      chunk(
          sim,
          "Accel-Sim [build accelsim-commit-test]\n"
              + "*** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-test] ***\n"
              + "GPGPU-Sim uArch: performance model initialization complete.\n");
    }
    engine.reports().heartbeat(sim.simId(), Heartbeat.running(chunks.get(sim.simId())));
  }

  /**
   * Sends kernel {@code k}'s statistics block: {@code 1000 * k + 10 * replica} cycles and {@code
   * 4000 * k} instructions of its own, then a heartbeat.
   */
  void finishKernel(SimLaunch sim, int k) {
    heartbeat(sim);
    long cycles = 1000L * k + 10L * sim.replica();
    long total = totalCycles.merge(sim.simId(), cycles, Long::sum);
    kernelsSent.put(sim.simId(), k);
    long instructions = 4000L * k;
    long totalInstructions = 0;
    for (int i = 1; i <= k; i++) {
      totalInstructions += 4000L * i;
    }
    chunk(
        sim,
        "launching kernel name: kernel_"
            + k
            + " uid: "
            + k
            + "\nkernel_name = kernel_"
            + k
            + " \nkernel_launch_uid = "
            + k
            + " \ngpu_sim_cycle = "
            + cycles
            + "\ngpu_sim_insn = "
            + instructions
            + "\ngpu_ipc =       2.0000\ngpu_tot_sim_cycle = "
            + total
            + "\ngpu_tot_sim_insn = "
            + totalInstructions
            + "\ngpu_tot_ipc =       2.0000\n"
            + "gpgpu_simulation_time = 0 days, 0 hrs, 0 min, 1 sec (1 sec)\n"
            + "gpgpu_simulation_rate = 4000 (inst/sec)\n"
            + "gpgpu_simulation_rate = 1000 (cycle/sec)\n"
            + "gpgpu_silicon_slowdown = 1000000x\n");
    engine.reports().heartbeat(sim.simId(), Heartbeat.running(chunks.get(sim.simId())));
  }

  /** Finishes every kernel still to do and reports {@code succeeded}. */
  void succeed(SimLaunch sim) {
    heartbeat(sim);
    int done = kernelsSent.getOrDefault(sim.simId(), 0);
    for (int k = done + 1; k <= KERNELS; k++) {
      finishKernel(sim, k);
    }
    chunk(sim, "GPGPU-Sim: *** simulation thread exiting ***\nGPGPU-Sim: *** exit detected ***\n");
    engine
        .reports()
        .heartbeat(
            sim.simId(), new Heartbeat(SimState.SUCCEEDED, null, 0, chunks.get(sim.simId())));
  }

  /** Reports {@code failed} with {@code error}. */
  void fail(SimLaunch sim, String error) {
    heartbeat(sim);
    engine
        .reports()
        .heartbeat(sim.simId(), new Heartbeat(SimState.FAILED, error, 1, chunks.get(sim.simId())));
  }

  private void chunk(SimLaunch sim, String text) {
    int seq = chunks.merge(sim.simId(), 1, Integer::sum) - 1;
    engine.reports().putChunk(sim.simId(), seq, text.getBytes(StandardCharsets.UTF_8));
  }

  // ------------------------------------------------------------------ traces

  private void awaitTrace(String id, TraceState state) throws Exception {
    CompletableFuture<Trace> reached = new CompletableFuture<>();
    Consumer<Trace> listener =
        trace -> {
          if (trace.id().equals(id) && trace.state() == state) {
            reached.complete(trace);
          }
        };
    ((TraceStore) engine.traces()).addListener(listener);
    try {
      engine.traces().find(id).filter(t -> t.state() == state).ifPresent(reached::complete);
      reached.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      ((TraceStore) engine.traces()).removeListener(listener);
    }
  }

  /** A processed trace of {@code kernels} small kernels, as an upload leaves it. */
  private static void writeTrace(Path dataDir, String id, int kernels, String metadata)
      throws IOException {
    Path folder = dataDir.resolve("s3/cascade/accelsim-traces").resolve(id);
    Path traces = Files.createDirectories(folder.resolve("traces"));
    StringBuilder list = new StringBuilder();
    for (int k = 1; k <= kernels; k++) {
      list.append("kernel-").append(k).append(".traceg\n");
      Files.writeString(
          traces.resolve("kernel-" + k + ".traceg"),
          "-kernel name = kernel_"
              + k
              + "\n-kernel id = "
              + k
              + "\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"
              + "-binary version = 90\n-cuda stream id = 0\n\n#traces format = threadblock_x"
              + " threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] opcode"
              + " src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n");
    }
    Files.writeString(traces.resolve("kernelslist.g"), list);
    Files.writeString(folder.resolve("metadata.json"), metadata);
  }

  /** A launcher that starts nothing: it hands each launch to the test, which plays the sim. */
  static final class FakeLauncher implements Launcher {
    final BlockingQueue<SimLaunch> launches = new LinkedBlockingQueue<>();
    final List<String> stops = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public String launch(SimLaunch launch) {
      launches.add(launch);
      return "fake-" + launch.simId();
    }

    @Override
    public void stop(String launcherRef) {
      stops.add(launcherRef);
    }
  }
}
