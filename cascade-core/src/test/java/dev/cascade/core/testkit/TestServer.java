package dev.cascade.core.testkit;

import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.SimState;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.http.HttpApi;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * An embedded Cascade and its HTTP server on a free loopback port, for tests of what talks to the
 * API (the client, the CLI, the JUnit extension). Its data dir holds a ready trace {@code demo} of
 * three kernels, a sample {@code sample} and a failed upload {@code broken}. Sims are launched by a
 * {@link FakeLauncher} that starts nothing; the test plays each sim's side through the engine's sim
 * reports ({@link #heartbeat}, {@link #finishKernel}, {@link #succeed}, {@link #fail}), with
 * Accel-Sim output the server parses for progress and results.
 */
public final class TestServer implements AutoCloseable {

  public static final Duration WAIT = Duration.ofSeconds(60);
  public static final int KERNELS = 3;

  public final FakeLauncher launcher = new FakeLauncher();
  public final Engine engine;
  public final HttpApi server;
  private final Map<String, Integer> chunks = new ConcurrentHashMap<>();
  private final Map<String, Long> totalCycles = new ConcurrentHashMap<>();
  private final Map<String, Integer> kernelsSent = new ConcurrentHashMap<>();

  /** A server on a free port, without a token. */
  public TestServer(Path dataDir) throws Exception {
    this(dataDir, ServerSettings.defaults().withPort(0));
  }

  public TestServer(Path dataDir, ServerSettings settings) throws Exception {
    TestTraces.write(
        dataDir,
        "demo",
        KERNELS,
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"sm_90\","
            + " \"model_name\": \"facebook/opt-125m\", \"suggested_sim_config\": \"SM90_H100\","
            + " \"traced_layers\": [\"model.decoder.layers.10.self_attn\"]}");
    TestTraces.write(dataDir, "sample", 2, "{\"status\": \"complete\", \"sample\": true}");
    TestTraces.write(
        dataDir, "broken", 1, "{\"status\": \"failed\", \"error\": \"profiler crashed\"}");
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
    engine.startLaunching(server.url());
    awaitTrace("demo", TraceState.READY);
    awaitTrace("sample", TraceState.READY);
    awaitTrace("broken", TraceState.FAILED);
  }

  /** {@code http://127.0.0.1:port}. */
  public String url() {
    return server.url();
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      engine.close();
    }
  }

  // ------------------------------------------------------------------ playing the sims

  /** The next sim launched, within {@link #WAIT}. */
  public SimLaunch nextLaunch() throws InterruptedException {
    SimLaunch launch = launcher.launches.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    if (launch == null) {
      throw new AssertionError("no sim was launched within " + WAIT);
    }
    return launch;
  }

  /** The next {@code count} sims launched. */
  public List<SimLaunch> nextLaunches(int count) throws InterruptedException {
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
  public Map<String, SimLaunch> nextLaunchesByName(int count) throws InterruptedException {
    Map<String, SimLaunch> byName = new HashMap<>();
    for (SimLaunch launch : nextLaunches(count)) {
      byName.put(launch.environment().get("CASCADE_GPU_CONFIG") + "#" + launch.replica(), launch);
    }
    return byName;
  }

  /** A {@code running} heartbeat, with the Accel-Sim banner as the sim's first chunk. */
  public void heartbeat(SimLaunch sim) {
    heartbeat(sim, "accelsim-commit-test");
  }

  /**
   * As {@link #heartbeat(SimLaunch)}, the banner naming {@code accelSimBuild} as the simulator's
   * build (as a rebuilt simulator would); only the sim's first heartbeat sends the banner.
   */
  public void heartbeat(SimLaunch sim, String accelSimBuild) {
    if (chunks.putIfAbsent(sim.simId(), 0) == null) {
      chunk(
          sim,
          "Accel-Sim [build "
              + accelSimBuild
              + "]\n"
              + "*** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-test] ***\n"
              + "GPGPU-Sim uArch: performance model initialization complete.\n");
    }
    engine.reports().heartbeat(sim.simId(), Heartbeat.running(chunks.get(sim.simId())));
  }

  /**
   * Sends kernel {@code k}'s statistics block: {@code 1000 * k + 10 * replica} cycles and {@code
   * 4000 * k} instructions of its own, then a heartbeat.
   */
  public void finishKernel(SimLaunch sim, int k) {
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
  public void succeed(SimLaunch sim) {
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

  /**
   * Sends {@code log} (a whole simulator log, a real one say) as the sim's output in 64 KiB chunks
   * split anywhere, then reports {@code succeeded}.
   */
  public void sendLogAndSucceed(SimLaunch sim, byte[] log) {
    chunks.putIfAbsent(sim.simId(), 0);
    engine.reports().heartbeat(sim.simId(), Heartbeat.running(chunks.get(sim.simId())));
    for (int from = 0; from < log.length; from += 65_536) {
      int seq = chunks.merge(sim.simId(), 1, Integer::sum) - 1;
      engine
          .reports()
          .putChunk(
              sim.simId(), seq, Arrays.copyOfRange(log, from, Math.min(log.length, from + 65_536)));
    }
    engine
        .reports()
        .heartbeat(
            sim.simId(), new Heartbeat(SimState.SUCCEEDED, null, 0, chunks.get(sim.simId())));
  }

  /** Reports {@code failed} with {@code error}. */
  public void fail(SimLaunch sim, String error) {
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

  /** Waits up to {@link #WAIT} until the trace {@code id} is in {@code state}. */
  public void awaitTrace(String id, TraceState state) throws Exception {
    CompletableFuture<Trace> reached = new CompletableFuture<>();
    Consumer<Trace> listener =
        trace -> {
          if (trace.id().equals(id) && trace.state() == state) {
            reached.complete(trace);
          }
        };
    engine.traces().addListener(listener);
    try {
      engine.traces().find(id).filter(t -> t.state() == state).ifPresent(reached::complete);
      reached.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      engine.traces().removeListener(listener);
    }
  }

  /** A launcher that starts nothing: it hands each launch to the test, which plays the sim. */
  public static final class FakeLauncher implements Launcher {
    public final BlockingQueue<SimLaunch> launches = new LinkedBlockingQueue<>();
    public final List<String> stops = new CopyOnWriteArrayList<>();

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
