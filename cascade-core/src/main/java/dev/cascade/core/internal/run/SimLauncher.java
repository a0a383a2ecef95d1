package dev.cascade.core.internal.run;

import dev.cascade.agent.SimContract;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.Sim;
import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.LaunchResult;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a {@link Launcher} for one sim and says what came of it: the sim gets the contract's
 * environment (DESIGN.md section 7) with a token made for this launch; a transient failure is tried
 * again a few times; a call that does not return in time fails. It touches no stored state: the
 * caller applies the {@link LaunchOutcome}.
 */
final class SimLauncher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SimLauncher.class);
  private static final int ATTEMPTS = 3;

  private final Launcher launcher;
  private final SimTokens tokens;
  private final RunSettings settings;
  private final Duration launchTimeout;
  private volatile boolean closing;

  SimLauncher(Launcher launcher, SimTokens tokens, RunSettings settings, Duration launchTimeout) {
    this.launcher = launcher;
    this.tokens = tokens;
    this.settings = settings;
    this.launchTimeout = launchTimeout;
  }

  SimTokens tokens() {
    return tokens;
  }

  String launcherName() {
    return launcher.name();
  }

  /** Launches the sim, trying a transient failure again; blocks until it knows the outcome. */
  LaunchOutcome launch(
      Sim sim, String traceId, Path traceDir, GpuConfig config, String mainUrl, long memoryBytes) {
    for (int attempt = 1; ; attempt++) {
      try {
        String ref =
            callWithTimeout(launchOf(sim, traceId, traceDir, config, mainUrl, memoryBytes));
        return new LaunchOutcome.Launched(launcher.name(), ref);
      } catch (LaunchException e) {
        if (closing) {
          return new LaunchOutcome.Abandoned();
        }
        if (e.isTransient() && attempt < ATTEMPTS) {
          log.warn("launching sim {} failed (try {}): {}", sim.id(), attempt, e.getMessage());
          if (!sleep(Duration.ofSeconds(1L << (attempt - 1)))) {
            return new LaunchOutcome.Abandoned();
          }
          continue;
        }
        return new LaunchOutcome.Failed("launch failed: " + e.getMessage());
      }
    }
  }

  /** True when the launcher takes a run entry's sims in one {@link #launchAll} call. */
  boolean launchesInBatches() {
    return launcher.launchesInBatches();
  }

  /**
   * Launches the sims of one run entry in one call of the launcher's {@code launchAll}, trying the
   * ones that failed transiently again together; one outcome per sim, in order.
   */
  List<LaunchOutcome> launchAll(
      List<Sim> batch,
      String traceId,
      Path traceDir,
      GpuConfig config,
      String mainUrl,
      java.util.function.ToLongFunction<Sim> memoryBytes) {
    LaunchOutcome[] outcomes = new LaunchOutcome[batch.size()];
    List<Integer> left = new ArrayList<>();
    SimLaunch[] launches = new SimLaunch[batch.size()];
    for (int i = 0; i < batch.size(); i++) {
      try {
        launches[i] =
            launchOf(
                batch.get(i),
                traceId,
                traceDir,
                config,
                mainUrl,
                memoryBytes.applyAsLong(batch.get(i)));
        left.add(i);
      } catch (LaunchException e) {
        outcomes[i] = new LaunchOutcome.Failed("launch failed: " + e.getMessage());
      }
    }
    for (int attempt = 1; !left.isEmpty(); attempt++) {
      List<SimLaunch> now = left.stream().map(i -> launches[i]).toList();
      List<LaunchResult> results = callAllWithTimeout(now);
      List<Integer> again = new ArrayList<>();
      for (int j = 0; j < left.size(); j++) {
        int i = left.get(j);
        LaunchResult result = results.get(j);
        if (result.isLaunched()) {
          outcomes[i] = new LaunchOutcome.Launched(launcher.name(), result.ref());
        } else if (closing) {
          outcomes[i] = new LaunchOutcome.Abandoned();
        } else if (result.failure().isTransient() && attempt < ATTEMPTS) {
          again.add(i);
        } else {
          outcomes[i] = new LaunchOutcome.Failed("launch failed: " + result.failure().getMessage());
        }
      }
      if (!again.isEmpty()) {
        log.warn("launching {} sims failed (try {}); trying again", again.size(), attempt);
        if (!sleep(Duration.ofSeconds(1L << (attempt - 1)))) {
          again.forEach(i -> outcomes[i] = new LaunchOutcome.Abandoned());
          again.clear();
        }
      }
      left = again;
    }
    return List.of(outcomes);
  }

  private List<LaunchResult> callAllWithTimeout(List<SimLaunch> launches) {
    try (ExecutorService call = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<List<LaunchResult>> results = call.submit(() -> launcher.launchAll(launches));
      LaunchException failure;
      try {
        List<LaunchResult> answer = results.get(launchTimeout.toMillis(), TimeUnit.MILLISECONDS);
        if (answer.size() == launches.size()) {
          return answer;
        }
        failure =
            new LaunchException(
                "the "
                    + launcher.name()
                    + " launcher gave "
                    + answer.size()
                    + " results for "
                    + launches.size()
                    + " sims");
      } catch (TimeoutException e) {
        results.cancel(true);
        failure =
            new LaunchException(
                "the " + launcher.name() + " launcher did not answer within " + launchTimeout);
      } catch (ExecutionException e) {
        failure =
            new LaunchException(
                "the " + launcher.name() + " launcher failed: " + e.getCause(),
                false,
                e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new LaunchException("interrupted while launching", true, e);
      }
      LaunchResult failed = LaunchResult.failed(failure);
      return launches.stream().map(launch -> failed).toList();
    }
  }

  /**
   * Stops the sim's process or sandbox, if it was launched, and by this launcher; a failure to stop
   * is logged, never thrown.
   */
  void stop(Sim sim) {
    if (sim.launcherRef() == null) {
      return;
    }
    String owner = sim.launcherName();
    if (owner != null && !owner.equals(launcher.name())) {
      log.warn(
          "sim {} was launched by the {} launcher, not {}: not stopping {}",
          sim.id(),
          owner,
          launcher.name(),
          sim.launcherRef());
      return;
    }
    try {
      launcher.stop(sim.launcherRef());
    } catch (RuntimeException e) {
      log.warn("stopping sim {} ({}) failed: {}", sim.id(), sim.launcherRef(), e.toString());
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

  SimLaunch launchOf(
      Sim sim, String traceId, Path traceDir, GpuConfig config, String mainUrl, long memoryBytes)
      throws LaunchException {
    if (settings.simCommand().isEmpty()) {
      throw new LaunchException(
          "no simulator command: set CASCADE_SIM_CMD (or the builder's simCommand)");
    }
    if (!Files.isDirectory(traceDir)) {
      throw new LaunchException(SimExit.traceGone(traceId, traceDir), false, null);
    }
    Path simsFolder = settings.dataDir().resolve("work").resolve("sims");
    URI app;
    try {
      app = URI.create(mainUrl);
    } catch (IllegalArgumentException e) {
      throw new LaunchException(
          SimContract.MAIN_URL + " '" + mainUrl + "' is not a URL: " + e.getMessage(), false, e);
    }
    Path simTraceDir =
        sim.kernels() == null
            ? traceDir
            : KernelWindowTrace.write(
                settings.dataDir(), sim.id(), traceDir, KernelWindow.parse(sim.kernels()));
    Path workDir = simsFolder.resolve(sim.id());
    Path configDir = configFolderOf(config, workDir);
    SimContract contract =
        new SimContract(
            app,
            sim.id(),
            tokens.issue(sim.id()),
            sim.runId(),
            sim.replica(),
            traceId,
            simTraceDir,
            config.name(),
            configDir,
            settings.dataDir(),
            String.join(" ", settings.simCommand()));
    // How long the app waits for a silent sim, so the agent retries as long (a restart of the app
    // shorter than that loses no sim).
    Map<String, String> extra = new LinkedHashMap<>(settings.simEnvironment());
    extra.put(SimContract.APP_PATIENCE_S, Long.toString(settings.giveUpAfter().toSeconds()));
    return new SimLaunch(
        contract, settings.simCommand(), extra, workDir, outputOf(sim.id()), memoryBytes);
  }

  /**
   * The config folder the sim gets ({@link SimConfigFiles#folderFor}), with the files its {@code
   * gpgpusim.config} names relative to the working folder linked into {@code workDir}.
   */
  private Path configFolderOf(GpuConfig config, Path workDir) throws LaunchException {
    if (config.directory() == null) {
      return null;
    }
    try {
      Path folder = SimConfigFiles.folderFor(config, settings.dataDir());
      SimConfigFiles.linkCompanions(folder, workDir);
      return folder;
    } catch (IOException | RuntimeException e) {
      throw new LaunchException(
          "cannot lay out the files of GPU config \""
              + config.name()
              + "\" from "
              + config.directory()
              + (config.traceConfigApart() ? " and " + config.traceConfig() : "")
              + " for the sim in "
              + workDir
              + ": "
              + e.getMessage()
              + "; check that the data dir takes writes",
          false,
          e);
    }
  }

  /** Where the sim's process writes its stdout and stderr. */
  Path outputOf(String simId) {
    return settings.dataDir().resolve("work").resolve("sims").resolve(simId + ".out");
  }

  /** The sim's exit code once it ended, when the launcher can tell: {@link Launcher#exitOf}. */
  Optional<CompletableFuture<Integer>> exitOf(String launcherRef) {
    return launcher.exitOf(launcherRef);
  }

  /** The refs of sims the launcher finds running without their ref stored. */
  Map<String, String> findRunning(Set<String> simIds) {
    return simIds.isEmpty() ? Map.of() : launcher.findRunning(simIds);
  }

  /**
   * True when the sim was launched by this launcher, which knows that nothing of it runs any more.
   */
  boolean hasEnded(Sim sim) {
    return sim.launcherRef() != null
        && launcher.name().equals(sim.launcherName())
        && launcher.hasEnded(sim.launcherRef());
  }

  static boolean sleep(Duration duration) {
    try {
      Thread.sleep(duration);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Launches still trying end as abandoned. */
  @Override
  public void close() {
    closing = true;
  }
}
