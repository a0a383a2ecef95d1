package dev.cascade.core.testkit;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.FleetRun;
import dev.cascade.agent.SimContract;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Failure;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A launcher that starts no process: it hands every sim the app launches to a running {@link
 * FleetRun} (the agent's {@link EmulatorFleet}, all sims on its one loop thread in this JVM), which
 * emulates it with the trace, config and replica the app gave the sim. Thousands of sims through
 * one app without a JVM per sim.
 *
 * <p>The test builds the {@link FleetRun} with the fleet settings it wants (heartbeats, chunks,
 * backoff), hands it over with {@link #sendTo} once the server's URL is known, and closes it
 * itself. Built with {@link Builder#holdUntilRelease}, the launcher only notes each launch until
 * {@link #release}, so a test can look at a run whose sims are launched but not started yet.
 */
public final class FleetLauncher implements Launcher {

  /** Where sims of a failing config stop: their third kernel deadlocks. */
  public static final int FAILING_KERNEL = 3;

  private final double speed;
  private final Set<String> failing;
  private final boolean inBatches;
  private final List<SimLaunch> held = new ArrayList<>();
  private FleetRun fleet;
  private boolean holding;
  private int launched;

  private FleetLauncher(Builder b) {
    this.speed = b.speed;
    this.failing = Set.copyOf(b.failing);
    this.inBatches = b.inBatches;
    this.holding = b.hold;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a {@link FleetLauncher}; every one has a default. */
  public static final class Builder {
    private double speed = EmulatorOptions.DEFAULT_SPEED;
    private Set<String> failing = Set.of();
    private boolean inBatches;
    private boolean hold;

    private Builder() {}

    /** Simulated cycles per wall second of every sim (0: as fast as it can). */
    public Builder speed(double speed) {
      if (speed < 0 || Double.isNaN(speed)) {
        throw new IllegalArgumentException("speed must be 0 or more; got " + speed);
      }
      this.speed = speed;
      return this;
    }

    /** GPU configs (by name) whose sims fail at kernel {@value #FAILING_KERNEL} with DEADLOCK. */
    public Builder failing(Set<String> configs) {
      this.failing = Set.copyOf(configs);
      return this;
    }

    /**
     * Takes each run entry's sims in one {@link #launchAll} call, as a cluster's launcher does,
     * instead of one launch call per sim.
     */
    public Builder inBatches() {
      this.inBatches = true;
      return this;
    }

    /** Notes launches and hands them to the fleet only on {@link FleetLauncher#release}. */
    public Builder holdUntilRelease() {
      this.hold = true;
      return this;
    }

    public FleetLauncher build() {
      return new FleetLauncher(this);
    }
  }

  /**
   * Where launched sims go; set before the first sim is handed over (the first launch, or {@link
   * #release} when holding).
   */
  public synchronized void sendTo(FleetRun fleet) {
    this.fleet = Objects.requireNonNull(fleet, "fleet");
  }

  /** Hands every held sim to the fleet; later launches go to it at once. */
  public synchronized void release() {
    holding = false;
    held.forEach(this::handOver);
    held.clear();
  }

  /** Sims launched so far, held or handed over. */
  public synchronized int launched() {
    return launched;
  }

  /** The ref this launcher gives the sim {@code simId}. */
  public static String ref(String simId) {
    return "fleet:" + simId;
  }

  @Override
  public String name() {
    return "fleet";
  }

  @Override
  public boolean launchesInBatches() {
    return inBatches;
  }

  @Override
  public String launch(SimLaunch launch) {
    return launchAll(List.of(launch)).getFirst().ref();
  }

  @Override
  public synchronized List<LaunchResult> launchAll(List<SimLaunch> launches) {
    List<LaunchResult> results = new ArrayList<>();
    for (SimLaunch launch : launches) {
      if (holding) {
        held.add(launch);
      } else {
        handOver(launch);
      }
      launched++;
      results.add(LaunchResult.launched(ref(launch.simId())));
    }
    return results;
  }

  private void handOver(SimLaunch launch) {
    FleetRun to = Objects.requireNonNull(fleet, "no fleet to launch into: call sendTo first");
    to.add(
        new EmulatorFleet.Member(launch.simId(), launch.contract().simToken(), launch.replica()),
        options(launch.contract()));
  }

  /**
   * The sim's own trace, config folder (or built-in name) and replica, at this launcher's speed.
   */
  private EmulatorOptions options(SimContract contract) {
    String config =
        contract.gpuConfigDir() != null ? contract.gpuConfigDir().toString() : contract.gpuConfig();
    EmulatorOptions options =
        EmulatorOptions.of(contract.traceDir(), config)
            .withReplica(contract.replica())
            .withSpeed(speed);
    return failing.contains(contract.gpuConfig())
        ? options.withFailure(FAILING_KERNEL, Failure.DEADLOCK)
        : options;
  }

  @Override
  public void stop(String launcherRef) {
    // A fleet member stops when the app answers its heartbeat with cancel; nothing else runs.
  }
}
