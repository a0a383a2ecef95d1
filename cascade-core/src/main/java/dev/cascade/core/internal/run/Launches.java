package dev.cascade.core.internal.run;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.FailureClass;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.spi.Launcher;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns pending sims into launched ones, at most {@code maxLaunches} launch calls at once, and
 * stops them: it moves each sim to {@code launching}, asks the {@link SimLauncher}, and applies the
 * {@link LaunchOutcome}. Launches wait until {@link #start} says where sims report to.
 */
public final class Launches implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Launches.class);

  /** How long a launch waits before writing again to a data dir that refused a write. */
  private static final Duration WRITE_RETRY = Duration.ofSeconds(1);

  private final SimLauncher launcher;
  private final RestartRecovery recovery;
  private final LaunchQueue queue;
  private final SlotQueue slots;
  private final SimRepository sims;
  private final SimMoves moves;
  private final RunSettings settings;
  private final Clock clock;
  private final CompletableFuture<String> mainUrl = new CompletableFuture<>();
  private final ExecutorService stops = Executors.newVirtualThreadPerTaskExecutor();

  /** The memory of local sims: measured, and what the queue admits by. */
  private final SimMemory memory;

  /** Sims that reported their end, whose process has {@code stopTimeout} to exit by itself. */
  private final Set<String> finishing = ConcurrentHashMap.newKeySet();

  private volatile boolean closing;

  public Launches(
      Launcher launcher,
      SimTokens tokens,
      SimRepository sims,
      SimMoves moves,
      SlotQueue slots,
      SimMemory memory,
      RunSettings settings,
      Clock clock) {
    this.launcher = new SimLauncher(launcher, tokens, settings, Duration.ofMinutes(5));
    this.slots = slots;
    this.recovery = new RestartRecovery(this.launcher, sims, moves, clock);
    this.queue = new LaunchQueue(settings.maxLaunches());
    this.sims = sims;
    this.moves = moves;
    this.settings = settings;
    this.clock = clock;
    this.memory = memory;
    memory.start(moves::recordPeakMemory, slots::recheck);
  }

  /** Lets queued launches go: sims report to {@code mainUrl} ({@code CASCADE_MAIN_URL}). */
  public void start(String mainUrl) {
    this.mainUrl.complete(mainUrl);
  }

  /**
   * The tokens sims present: each made at random for one launch and handed to that sim alone (on
   * its stdin), with only its SHA-256 hash kept in the database.
   */
  public SimTokens tokens() {
    return launcher.tokens();
  }

  /** The command sims run, for what it says of the simulator ({@link SimInputs}). */
  List<String> simCommand() {
    return settings.simCommand();
  }

  /** Cascade's data folder, whose {@code work/} holds what sims run from. */
  Path dataDir() {
    return settings.dataDir();
  }

  /** The most launch calls ever in flight at once. */
  public int peakLaunchesInFlight() {
    return queue.peakInFlight();
  }

  /** The most sims that ever held a slot at once (0 for a launcher without slots). */
  public int peakSlotsHeld() {
    return slots.peakHolding();
  }

  /**
   * Queues a pending sim of {@code run} for launch on {@code config} with the trace at {@code
   * traceDir}: it waits for a slot (when the launcher has slots), then for a launch call.
   */
  void submit(Sim sim, Run run, String traceId, Path traceDir, long traceBytes, GpuConfig config) {
    memory.expect(sim.id(), traceId, config.name(), traceBytes);
    slots.submit(
        sim.id(),
        sim.runId(),
        run.owner(),
        run.priority(),
        () ->
            dispatch(
                sim,
                traceId,
                traceDir,
                config,
                memory.launchBytes(sim.attempt(), traceId, config.name(), traceBytes)),
        reason -> refuse(sim.id(), reason));
  }

  /** The queue will never start the sim (it can never fit the machine's memory): it fails. */
  private void refuse(String simId, String reason) {
    String error = "launch failed: " + reason;
    if (moves.move(simId, SimState.PENDING, SimState.FAILED, Outcome.error(error))) {
      log.warn("sim {} {}", simId, error);
    }
    memory.finish(simId);
  }

  /** The slots sims wait for. */
  SlotQueue slots() {
    return slots;
  }

  /**
   * A sim an earlier process launched, still unfinished, holds a slot until it finishes; a local
   * one's memory is measured from now on (its peak from before the restart is the stored one).
   */
  void holdSlot(Sim sim) {
    slots.hold(sim.id());
    if (sim.launcherRef() != null && launcher.launcherName().equals(sim.launcherName())) {
      watchMemory(sim.id(), sim.launcherRef());
    }
  }

  private void dispatch(
      Sim sim, String traceId, Path traceDir, GpuConfig config, long memoryBytes) {
    queue.submit(sim.id(), () -> launch(sim, traceId, traceDir, config, memoryBytes));
  }

  /**
   * Queues the pending sims of one run entry: one batch launch call when the launcher takes batches
   * (a Slurm job array, whose launcher has no slots: the cluster queues its tasks), else one launch
   * per sim as {@link #submit} does, each after a slot.
   */
  void submitAll(
      List<Sim> entrySims,
      Run run,
      String traceId,
      Path traceDir,
      long traceBytes,
      GpuConfig config) {
    if (!launcher.launchesInBatches()) {
      entrySims.forEach(sim -> submit(sim, run, traceId, traceDir, traceBytes, config));
    } else if (!entrySims.isEmpty()) {
      queue.submit(
          entrySims.getFirst().id() + " and its entry",
          () -> launchBatch(entrySims, traceId, traceDir, traceBytes, config));
    }
  }

  private void launchBatch(
      List<Sim> entrySims, String traceId, Path traceDir, long traceBytes, GpuConfig config) {
    String url = mainUrl.join();
    if (closing) {
      return;
    }
    List<Sim> batch = new ArrayList<>();
    for (Sim sim : entrySims) {
      if (moves.startLaunch(sim.id(), clock.instant())) {
        batch.add(sim);
      }
    }
    if (batch.isEmpty()) {
      return;
    }
    List<LaunchOutcome> outcomes =
        launcher.launchAll(
            batch,
            traceId,
            traceDir,
            config,
            url,
            sim -> memory.launchBytes(sim.attempt(), traceId, config.name(), traceBytes));
    for (int i = 0; i < batch.size(); i++) {
      apply(batch.get(i), traceId, traceDir, outcomes.get(i));
    }
  }

  private void launch(Sim sim, String traceId, Path traceDir, GpuConfig config, long memoryBytes) {
    String url = mainUrl.join();
    if (closing) {
      return; // shutting down: the sim stays pending and the next start launches it
    }
    try {
      if (!moves.startLaunch(sim.id(), clock.instant())) {
        return; // cancelled while it waited, or already launched
      }
    } catch (CascadeException e) {
      if (e.code() != ErrorCode.UNAVAILABLE) {
        throw e;
      }
      // The data dir takes no writes (the store logs why): the sim stays pending; try again.
      stops.execute(
          () -> {
            if (SimLauncher.sleep(WRITE_RETRY) && !closing) {
              dispatch(sim, traceId, traceDir, config, memoryBytes); // it keeps its slot
            }
          });
      return;
    }
    apply(
        sim, traceId, traceDir, launcher.launch(sim, traceId, traceDir, config, url, memoryBytes));
  }

  private void apply(Sim sim, String traceId, Path traceDir, LaunchOutcome outcome) {
    switch (outcome) {
      case LaunchOutcome.Launched launched -> {
        Instant launchedAt = clock.instant();
        if (!untilWritten(
            () ->
                sims.recordLaunch(sim.id(), launched.launcherName(), launched.ref(), launchedAt))) {
          return; // shutting down: left launching without a ref, the next start relaunches it
        }
        log.info("sim {} launched by {}: {}", sim.id(), launched.launcherName(), launched.ref());
        watchMemory(sim.id(), launched.ref());
        launcher
            .exitOf(launched.ref())
            .ifPresent(exit -> exit.thenAccept(code -> exited(sim.id(), traceId, traceDir, code)));
        SimState now = sims.find(sim.id()).map(Sim::state).orElse(SimState.CANCELLED);
        if (now == SimState.CANCELLED || now == SimState.FAILED) {
          stopLater(sim.id()); // cancelled or given up while the launch call was running
        }
      }
      case LaunchOutcome.Failed failed -> {
        if (moves.move(sim.id(), null, SimState.FAILED, Outcome.error(failed.error()))) {
          log.warn("sim {} {}", sim.id(), failed.error());
        }
      }
      case LaunchOutcome.Abandoned abandoned ->
          // Shutting down: leave the sim launching; the next start's monitor or the sim's own
          // heartbeats settle it.
          log.info("sim {}: launch abandoned at shutdown", sim.id());
    }
  }

  /**
   * The sim's process ended, and nothing of it runs: unless the sim reported its end (a final
   * heartbeat is applied before the sim is told it may exit), it fails now with the exit code and
   * what it printed last, instead of after the heartbeat give-up.
   */
  private void exited(String simId, String traceId, Path traceDir, int exitCode) {
    if (closing || sims.find(simId).map(sim -> sim.state().isFinished()).orElse(true)) {
      return;
    }
    String error = SimExit.reason(exitCode, traceId, traceDir, launcher.outputOf(simId));
    Optional<String> oomKill = outOfMemoryKill(simId);
    FailureClass failureClass = null;
    if (oomKill.isPresent()) {
      error = error + "; " + oomKill.get();
      failureClass = FailureClass.OUT_OF_MEMORY;
    }
    if (moves.move(simId, null, SimState.FAILED, new Outcome(error, exitCode, failureClass))) {
      log.warn("sim {} failed: {}", simId, error);
      stopLater(simId); // forgets the process
    }
    finishMemory(simId);
  }

  /** Samples the memory of a local sim's process tree, whose first process is {@code ref}. */
  private void watchMemory(String simId, String ref) {
    if (!LocalLauncher.NAME.equals(launcher.launcherName())) {
      return;
    }
    try {
      memory.watch(simId, Long.parseLong(ref));
    } catch (NumberFormatException e) {
      log.warn(
          "sim {}: launcher ref {} is not a process id; its memory is not measured", simId, ref);
    }
  }

  /**
   * How the kernel's out-of-memory killer ended a process of the local sim, in words, when it did
   * (an OOM kill counted in a memory cgroup its processes were in); empty otherwise.
   */
  Optional<String> outOfMemoryKill(String simId) {
    return memory.reading(simId).flatMap(reading -> reading.oomKill());
  }

  /** Stops sampling the sim's memory and stores its peak. */
  private void finishMemory(String simId) {
    memory.finish(simId).ifPresent(reading -> moves.recordPeakMemory(simId, reading.peakBytes()));
  }

  /** After a restart: {@link RestartRecovery#failEnded}. */
  public void failEnded() {
    recovery.failEnded();
  }

  /**
   * Runs {@code write} until the data dir takes it: a sim that was started must not lose its
   * launcher ref, or it could never be stopped. False when Cascade shut down first.
   */
  private boolean untilWritten(Runnable write) {
    while (!closing) {
      try {
        write.run();
        return true;
      } catch (CascadeException e) {
        if (e.code() != ErrorCode.UNAVAILABLE || !SimLauncher.sleep(WRITE_RETRY)) {
          throw e;
        }
      }
    }
    return false;
  }

  /** After a restart: {@link RestartRecovery#adoptRunning}. */
  Set<String> adoptRunning(List<Sim> withoutRef) {
    return recovery.adoptRunning(withoutRef);
  }

  /** Stops the sim's process or sandbox in the background, if it was launched. */
  void stopLater(String simId) {
    finishMemory(simId);
    stops.execute(() -> stopNow(simId));
  }

  /** A sim reported its end: stop what is left of it once it had time to exit by itself. */
  void stopAfterFinish(String simId) {
    finishMemory(simId);
    finishing.add(simId);
    stops.execute(
        () -> {
          if (SimLauncher.sleep(settings.stopTimeout()) && finishing.remove(simId)) {
            stopNow(simId);
          }
        });
  }

  private void stopNow(String simId) {
    sims.find(simId).ifPresent(launcher::stop);
  }

  /**
   * Stops launching; running sims are left alone to report again after the next start. What is left
   * of sims that already reported their end is stopped now instead of after their grace period:
   * nothing of theirs is still to come, and no process outlives its finished sim.
   */
  @Override
  public void close() {
    closing = true;
    memory.close();
    launcher.close();
    mainUrl.complete(null); // wakes launches that still wait for a start that will not come
    queue.close();
    stops.shutdownNow();
    try (ExecutorService now = Executors.newVirtualThreadPerTaskExecutor()) {
      for (String simId : List.copyOf(finishing)) {
        now.execute(() -> stopNow(simId));
      }
    }
    finishing.clear();
  }
}
