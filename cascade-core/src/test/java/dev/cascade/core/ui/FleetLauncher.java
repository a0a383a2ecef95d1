package dev.cascade.core.ui;

import dev.cascade.agent.EmulatorFleet;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Failure;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A launcher for runs of hundreds of sims in one test JVM: each launch is only noted, and {@link
 * #release} then plays every noted sim with the agent's {@link EmulatorFleet} (the emulator and the
 * sim's side of the contract, all sims of one config on one event loop), so a browser test can open
 * the page on a run whose sims have not started yet. Sims of the configs named in {@code failing}
 * fail at their third kernel.
 */
final class FleetLauncher implements Launcher {

  private final double speed;
  private final Set<String> failing;
  private final Map<String, List<SimLaunch>> byConfig = new LinkedHashMap<>();
  private final List<Thread> fleets = new ArrayList<>();
  private int launched;

  FleetLauncher(double speed, Set<String> failing) {
    this.speed = speed;
    this.failing = Set.copyOf(failing);
  }

  @Override
  public String name() {
    return "test-fleet";
  }

  @Override
  public synchronized String launch(SimLaunch launch) {
    byConfig.computeIfAbsent(launch.contract().gpuConfig(), c -> new ArrayList<>()).add(launch);
    launched++;
    return "fleet:" + launch.simId();
  }

  synchronized int launched() {
    return launched;
  }

  /** Starts one fleet per config with every sim launched so far. */
  synchronized void release() {
    for (List<SimLaunch> launches : byConfig.values()) {
      SimLaunch first = launches.getFirst();
      String config =
          first.contract().gpuConfigDir() != null
              ? first.contract().gpuConfigDir().toString()
              : first.contract().gpuConfig();
      EmulatorOptions options =
          EmulatorOptions.of(first.contract().traceDir(), config).withSpeed(speed);
      if (failing.contains(first.contract().gpuConfig())) {
        options = options.withFailure(3, Failure.DEADLOCK);
      }
      List<EmulatorFleet.Member> members =
          launches.stream()
              .map(
                  l ->
                      new EmulatorFleet.Member(
                          l.simId(), l.contract().simToken(), l.contract().replica()))
              .toList();
      EmulatorFleet fleet =
          EmulatorFleet.builder()
              .mainUrl(first.contract().mainUrl())
              .emulatorOptions(options)
              .members(members)
              .heartbeatInterval(Duration.ofMillis(1000))
              .chunks(64 << 10, Duration.ofMillis(500))
              .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
              .giveUpAfter(Duration.ofMinutes(3))
              .log(new PrintStream(OutputStream.nullOutputStream()))
              .build();
      Thread thread =
          Thread.ofPlatform()
              .daemon()
              .name("test-fleet-" + first.contract().gpuConfig())
              .start(
                  () -> {
                    try {
                      fleet.run();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  });
      fleets.add(thread);
    }
    byConfig.clear();
  }

  @Override
  public void stop(String launcherRef) {
    // A cancelled sim learns it from the app's answer to its next heartbeat and stops itself.
  }

  /** Stops the fleets that are still playing and waits for their threads to end. */
  @Override
  public synchronized void close() {
    for (Thread thread : fleets) {
      thread.interrupt();
    }
    for (Thread thread : fleets) {
      try {
        thread.join(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
