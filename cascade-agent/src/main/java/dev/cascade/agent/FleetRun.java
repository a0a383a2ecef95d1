package dev.cascade.agent;

import dev.cascade.agent.emulator.EmulatedGpu;
import dev.cascade.agent.emulator.EmulatedTrace;
import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.EmulatorOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fleet that is running ({@link EmulatorFleet#start}): members join while it runs, as a launcher
 * hands it the sims an app launches, and each starts emulating at once. Every member shares the
 * fleet's one loop thread and HTTP client; {@link #close} stops them, finished or not.
 */
public final class FleetRun implements AutoCloseable {

  /** Spreads first heartbeats over the interval, whatever the order members join in. */
  private static final double GOLDEN = 0.6180339887498949;

  private final EmulatorFleet fleet;
  private final ScheduledExecutorService loop;
  private final HttpClient http;
  private final FleetLoop state;
  private final long start = System.nanoTime();
  private final AtomicInteger added = new AtomicInteger();

  /** Traces and GPUs read once for every member that runs them; loop thread only. */
  private final Map<String, EmulatedTrace> traces = new HashMap<>();

  private final Map<String, EmulatedGpu> gpus = new HashMap<>();
  private int joined;

  FleetRun(EmulatorFleet fleet) {
    this.fleet = fleet;
    this.loop =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> Thread.ofPlatform().daemon().name("fleet-loop").unstarted(runnable));
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(loop)
            .build();
    this.state = new FleetLoop(loop, http, fleet.maxInFlight, fleet.log);
    long tick = Math.max(10, fleet.chunkAge.toMillis() / 4);
    loop.scheduleWithFixedDelay(state::tick, tick, tick, TimeUnit.MILLISECONDS);
  }

  /**
   * Reads the trace and config of {@code options} now, so that members using them start without
   * reading them on the loop.
   *
   * @throws IOException when either cannot be read
   */
  void preload(EmulatorOptions options) throws IOException, InterruptedException {
    EmulatedTrace trace = EmulatedTrace.load(options.trace(), options.countLimitBytes());
    EmulatedGpu gpu = EmulatedGpu.resolve(options.config());
    onLoop(
        () -> {
          traces.put(traceKey(options), trace);
          gpus.put(options.config(), gpu);
        });
  }

  /** Adds a member emulating with the fleet's options at its own replica. */
  public void add(EmulatorFleet.Member member) {
    if (fleet.options == null) {
      throw new IllegalStateException(
          "the fleet has no emulator options: give the builder some, or add members with theirs");
    }
    add(member, fleet.options.withReplica(member.replica()));
  }

  /**
   * Adds a member emulating {@code options} (its trace, config, replica, speed); it starts on the
   * loop at once. A trace or config that cannot be read leaves the member unfinished, with the
   * reason in the fleet's log. Safe from any thread.
   */
  public void add(EmulatorFleet.Member member, EmulatorOptions options) {
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(options, "options");
    added.incrementAndGet();
    loop.execute(() -> join(member, options));
  }

  private void join(EmulatorFleet.Member member, EmulatorOptions options) {
    Emulation emulation;
    try {
      EmulatedTrace trace = traces.get(traceKey(options));
      if (trace == null) {
        trace = EmulatedTrace.load(options.trace(), options.countLimitBytes());
        traces.put(traceKey(options), trace);
      }
      EmulatedGpu gpu = gpus.get(options.config());
      if (gpu == null) {
        gpu = EmulatedGpu.resolve(options.config());
        gpus.put(options.config(), gpu);
      }
      emulation = new Emulation(trace, gpu, options);
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      fleet.log.println(
          "cascade emulate: sim " + member.simId() + ": cannot emulate: " + e.getMessage());
      state.unfinished++;
      state.finished.release();
      return;
    }
    FleetSim sim = new FleetSim(fleet, state, member, emulation, options.speed());
    state.sims.add(sim);
    double phase = (joined++ * GOLDEN) % 1.0;
    sim.start((long) (fleet.heartbeatInterval.toNanos() * phase));
  }

  /** Members added so far. */
  public int added() {
    return added.get();
  }

  /**
   * Waits until {@code members} members have finished (their final report accepted, or given up),
   * or {@code timeout} passed, and returns what the fleet did so far; members still going count as
   * unfinished.
   */
  public EmulatorFleet.Report await(int members, Duration timeout) throws InterruptedException {
    state.finished.tryAcquire(members, timeout.toNanos(), TimeUnit.NANOSECONDS);
    return report();
  }

  /** What the fleet did so far; members still going count as unfinished. */
  public EmulatorFleet.Report report() throws InterruptedException {
    int members = added.get();
    Duration wall = Duration.ofNanos(System.nanoTime() - start);
    try {
      return loop.submit(() -> state.report(members, wall)).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the fleet's report failed", e.getCause());
    }
  }

  /** Stops the loop and the HTTP client; members still going stop where they are. */
  @Override
  public void close() {
    loop.shutdownNow();
    http.shutdownNow();
  }

  private void onLoop(Runnable task) throws InterruptedException {
    try {
      loop.submit(task).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the fleet's loop failed", e.getCause());
    }
  }

  private static String traceKey(EmulatorOptions options) {
    return options.trace().toAbsolutePath().normalize() + "@" + options.countLimitBytes();
  }
}
