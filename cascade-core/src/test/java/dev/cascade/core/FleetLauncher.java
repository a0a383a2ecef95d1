package dev.cascade.core;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.FleetRun;
import dev.cascade.agent.SimContract;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A launcher that starts no process: it hands every sim it is asked to launch to a running {@link
 * FleetRun}, which emulates it on its one loop thread with the trace, config and replica the app
 * gave the sim. It takes each run entry's sims in one batch, as a cluster's launcher does, and has
 * no slots of its own: thousands of sims through one app without thousands of JVMs.
 */
final class FleetLauncher implements Launcher {

  private final double speed;
  private volatile FleetRun fleet;

  /** Sims emulate at {@code speed} simulated cycles per wall second (0: as fast as it can). */
  FleetLauncher(double speed) {
    this.speed = speed;
  }

  /** Where launched sims go from now on; set before the first run is created. */
  void sendTo(FleetRun fleet) {
    this.fleet = Objects.requireNonNull(fleet, "fleet");
  }

  @Override
  public String name() {
    return "fleet";
  }

  @Override
  public boolean launchesInBatches() {
    return true;
  }

  @Override
  public String launch(SimLaunch launch) {
    return launchAll(List.of(launch)).getFirst().ref();
  }

  @Override
  public List<LaunchResult> launchAll(List<SimLaunch> launches) {
    FleetRun to = Objects.requireNonNull(fleet, "no fleet to launch into: call sendTo first");
    List<LaunchResult> results = new ArrayList<>();
    for (SimLaunch launch : launches) {
      SimContract contract = launch.contract();
      to.add(
          new EmulatorFleet.Member(contract.simId(), contract.simToken(), contract.replica()),
          EmulatorOptions.of(contract.traceDir(), contract.gpuConfig())
              .withReplica(contract.replica())
              .withSpeed(speed));
      results.add(LaunchResult.launched(ref(contract.simId())));
    }
    return results;
  }

  @Override
  public void stop(String launcherRef) {
    // A fleet member stops when the app answers its heartbeat with cancel; nothing else runs.
  }

  static String ref(String simId) {
    return "fleet:" + simId;
  }
}
