package dev.cascade.core.internal.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How the run manager launches and watches sims.
 *
 * @param simCommand the command each sim runs ({@code CASCADE_SIM_CMD}, split into words)
 * @param simEnvironment extra variables every sim gets, besides the contract's own
 * @param mainUrl where sims reach the app ({@code CASCADE_MAIN_URL}); asked at each launch, since
 *     the HTTP server may pick its port after the manager is made
 */
public record RunSettings(
    Path dataDir,
    int maxLaunches,
    Duration heartbeatTimeout,
    Duration monitorInterval,
    Duration stopTimeout,
    List<String> simCommand,
    Map<String, String> simEnvironment,
    Supplier<String> mainUrl) {

  public RunSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(monitorInterval, "monitorInterval");
    Objects.requireNonNull(stopTimeout, "stopTimeout");
    Objects.requireNonNull(mainUrl, "mainUrl");
    simCommand = List.copyOf(simCommand);
    simEnvironment = Map.copyOf(simEnvironment);
  }

  /** How long a sim may stay silent before it is given up: 10 times the heartbeat timeout. */
  public Duration giveUpAfter() {
    return heartbeatTimeout.multipliedBy(10);
  }
}
