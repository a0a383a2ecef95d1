package dev.cascade.core.internal.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the run manager launches and watches sims.
 *
 * @param simCommand the command each sim runs ({@code CASCADE_SIM_CMD}, split into words)
 * @param simEnvironment extra variables every sim gets, besides the contract's own
 */
public record RunSettings(
    Path dataDir,
    int maxLaunches,
    Duration heartbeatTimeout,
    Duration monitorInterval,
    Duration stopTimeout,
    List<String> simCommand,
    Map<String, String> simEnvironment) {

  public RunSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(monitorInterval, "monitorInterval");
    Objects.requireNonNull(stopTimeout, "stopTimeout");
    simCommand = List.copyOf(simCommand);
    simEnvironment = Map.copyOf(simEnvironment);
  }

  /** How long a sim may stay silent before it is given up: 10 times the heartbeat timeout. */
  public Duration giveUpAfter() {
    return heartbeatTimeout.multipliedBy(10);
  }
}
