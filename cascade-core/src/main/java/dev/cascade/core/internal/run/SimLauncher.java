package dev.cascade.core.internal.run;

import dev.cascade.agent.SimContract;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.internal.store.SimRepository.Outcome;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns pending sims into launched ones through a {@link Launcher}, at most {@code maxLaunches} at
 * once, and stops them. A sim gets the contract's environment (DESIGN.md section 7) with its own
 * token; a launch that fails makes it {@code failed} with the reason, after a few tries when the
 * launcher says the failure is transient.
 */
public final class SimLauncher implements AutoCloseable {

  /** Moves a sim and publishes the change; false when the move is refused. */
  @FunctionalInterface
  public interface Mover {
    boolean move(String simId, SimState expectedFrom, SimState to, Outcome outcome);
  }

  private static final Logger log = LoggerFactory.getLogger(SimLauncher.class);
  private static final int ATTEMPTS = 3;

  private final Launcher launcher;
  private final LaunchQueue queue;
  private final SimTokens tokens;
  private final SimRepository sims;
  private final Mover mover;
  private final RunSettings settings;
  private final Clock clock;
  private final Duration launchTimeout;
  private final ExecutorService stops = Executors.newVirtualThreadPerTaskExecutor();
  private volatile boolean closing;

  public SimLauncher(
      Launcher launcher,
      SimTokens tokens,
      SimRepository sims,
      Mover mover,
      RunSettings settings,
      Clock clock,
      Duration launchTimeout) {
    this.launcher = launcher;
    this.queue = new LaunchQueue(settings.maxLaunches());
    this.tokens = tokens;
    this.sims = sims;
    this.mover = mover;
    this.settings = settings;
    this.clock = clock;
    this.launchTimeout = launchTimeout;
  }

  public SimTokens tokens() {
    return tokens;
  }

  public String launcherName() {
    return launcher.name();
  }

  /** The most launch calls ever in flight at once. */
  public int peakLaunchesInFlight() {
    return queue.peakInFlight();
  }

  /** Queues a pending sim for launch on {@code config} with the trace at {@code traceDir}. */
  public void submit(Sim sim, String traceId, Path traceDir, GpuConfig config) {
    queue.submit(sim.id(), () -> launch(sim, traceId, traceDir, config));
  }

  private void launch(Sim sim, String traceId, Path traceDir, GpuConfig config) {
    if (closing) {
      return; // shutting down: the sim stays pending and the next start launches it
    }
    if (!mover.move(sim.id(), SimState.PENDING, SimState.LAUNCHING, Outcome.NONE)) {
      return; // cancelled while it waited, or already launched
    }
    sims.recordLaunchStarted(sim.id(), clock.instant());
    for (int attempt = 1; ; attempt++) {
      try {
        String ref = callWithTimeout(launchOf(sim, traceId, traceDir, config));
        sims.recordLaunch(sim.id(), launcher.name(), ref, clock.instant());
        log.info("sim {} launched by {}: {}", sim.id(), launcher.name(), ref);
        SimState now = sims.find(sim.id()).map(Sim::state).orElse(SimState.CANCELLED);
        if (now == SimState.CANCELLED || now == SimState.FAILED) {
          stopLater(sim.id()); // cancelled or given up while the launch call was running
        }
        return;
      } catch (LaunchException e) {
        if (closing) {
          // Cascade is shutting down: leave the sim launching; the next start's monitor or the
          // sim's own heartbeats settle it.
          log.info("sim {}: launch abandoned at shutdown", sim.id());
          return;
        }
        if (e.isTransient() && attempt < ATTEMPTS) {
          log.warn("launching sim {} failed (try {}): {}", sim.id(), attempt, e.getMessage());
          if (!sleep(Duration.ofSeconds(1L << (attempt - 1)))) {
            return;
          }
          continue;
        }
        String error = "launch failed: " + e.getMessage();
        if (mover.move(sim.id(), null, SimState.FAILED, Outcome.error(error))) {
          log.warn("sim {} {}", sim.id(), error);
        }
        return;
      }
    }
  }

  private String callWithTimeout(SimLaunch launch) throws LaunchException {
    try (ExecutorService call = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<String> ref = call.submit(() -> launcher.launch(launch));
      try {
        return ref.get(launchTimeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        ref.cancel(true);
        throw new LaunchException(
            "the " + launcher.name() + " launcher did not answer within " + launchTimeout);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof LaunchException launchException) {
          throw launchException;
        }
        throw new LaunchException(
            "the " + launcher.name() + " launcher failed: " + e.getCause(), false, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LaunchException("interrupted while launching", true, e);
      }
    }
  }

  SimLaunch launchOf(Sim sim, String traceId, Path traceDir, GpuConfig config)
      throws LaunchException {
    if (settings.simCommand().isEmpty()) {
      throw new LaunchException(
          "no simulator command: set CASCADE_SIM_CMD (or the builder's simCommand)");
    }
    Path simsFolder = settings.dataDir().resolve("work").resolve("sims");
    String mainUrl = settings.mainUrl().get();
    URI app;
    try {
      app = URI.create(mainUrl);
    } catch (IllegalArgumentException e) {
      throw new LaunchException(
          SimContract.MAIN_URL + " '" + mainUrl + "' is not a URL: " + e.getMessage(), false, e);
    }
    SimContract contract =
        new SimContract(
            app,
            sim.id(),
            tokens.tokenFor(sim.id()),
            sim.runId(),
            sim.replica(),
            traceId,
            traceDir,
            config.name(),
            config.directory(),
            settings.dataDir(),
            String.join(" ", settings.simCommand()));
    return new SimLaunch(
        contract,
        settings.simCommand(),
        settings.simEnvironment(),
        simsFolder.resolve(sim.id()),
        simsFolder.resolve(sim.id() + ".out"));
  }

  /** Stops the sim's process or sandbox in the background, if it was launched. */
  public void stopLater(String simId) {
    stops.execute(() -> stopNow(simId));
  }

  /** A sim reported its end: stop what is left of it once it had time to exit by itself. */
  public void finished(String simId) {
    stops.execute(
        () -> {
          if (sleep(settings.stopTimeout())) {
            stopNow(simId);
          }
        });
  }

  private void stopNow(String simId) {
    Optional<Sim> sim = sims.find(simId);
    if (sim.isEmpty() || sim.get().launcherRef() == null) {
      return;
    }
    String owner = sim.get().launcherName();
    if (owner != null && !owner.equals(launcher.name())) {
      log.warn(
          "sim {} was launched by the {} launcher, not {}: not stopping {}",
          simId,
          owner,
          launcher.name(),
          sim.get().launcherRef());
      return;
    }
    try {
      launcher.stop(sim.get().launcherRef());
    } catch (RuntimeException e) {
      log.warn("stopping sim {} ({}) failed: {}", simId, sim.get().launcherRef(), e.toString());
    }
  }

  private static boolean sleep(Duration duration) {
    try {
      Thread.sleep(duration);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    closing = true;
    queue.close();
    stops.shutdownNow();
  }
}
