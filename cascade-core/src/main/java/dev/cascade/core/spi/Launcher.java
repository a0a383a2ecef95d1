package dev.cascade.core.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Starts and stops sims somewhere: local processes, Sail sandboxes, ... Implementations are found
 * with {@link java.util.ServiceLoader} and chosen by {@link #name()}, or handed to the builder as
 * an instance.
 */
public interface Launcher extends AutoCloseable {

  /** The name users choose this launcher by ({@code "local"}, {@code "sail"}). */
  String name();

  /** Why this launcher cannot be used here; empty when it can. */
  default Optional<String> unavailableReason() {
    return Optional.empty();
  }

  /**
   * How many sims this launcher runs at once, when Cascade must queue the rest itself (the local
   * launcher: {@code CASCADE_LOCAL_SLOTS}); empty when it leaves the waiting to a scheduler of its
   * own (a cluster) and takes every sim as it comes.
   */
  default OptionalInt slots() {
    return OptionalInt.empty();
  }

  /**
   * Starts one sim and returns its launcher ref (a process id, a sandbox id), which {@link #stop}
   * takes later, possibly in another process after a restart.
   */
  String launch(SimLaunch launch) throws LaunchException;

  /**
   * True when {@link #launchAll} submits a batch in one go (a Slurm job array): the run manager
   * then hands it each run entry's sims together. False (the default) keeps one launch call per
   * sim, at most {@code maxLaunches} at once.
   */
  default boolean launchesInBatches() {
    return false;
  }

  /**
   * Starts several sims (the replicas of one run entry), returning one result per launch in the
   * same order. The default launches them one by one.
   */
  default List<LaunchResult> launchAll(List<SimLaunch> launches) {
    List<LaunchResult> results = new ArrayList<>();
    for (SimLaunch launch : launches) {
      try {
        results.add(LaunchResult.launched(launch(launch)));
      } catch (LaunchException e) {
        results.add(LaunchResult.failed(e));
      }
    }
    return results;
  }

  /**
   * What the launcher's own system says of these launched sims, by launcher ref; a ref it knows
   * nothing of is left out. The default knows nothing: heartbeats alone tell where sims are.
   */
  default Map<String, LauncherStatus> status(Collection<String> launcherRefs) {
    return Map.of();
  }

  /**
   * The peak memory of ended sims as the launcher's own system accounted it, in bytes, by launcher
   * ref (Slurm's {@code sacct} {@code MaxRSS}); a ref it has no figure for (yet) is left out. Asked
   * for a while after each sim it followed ends. The default knows none.
   */
  default Map<String, Long> peakMemory(Collection<String> launcherRefs) {
    return Map.of();
  }

  /** Stops a sim. Idempotent: a ref that is already gone is not an error. */
  void stop(String launcherRef);

  /**
   * The sim's exit code, once its process has ended and left nothing of it running, when this
   * launcher can tell (it started the process itself); empty when it cannot. The future does not
   * complete while something the sim started may still report. Cascade uses it to fail at once,
   * with the exit code, a sim that ended without reporting its end.
   */
  default Optional<CompletableFuture<Integer>> exitOf(String launcherRef) {
    return Optional.empty();
  }

  /**
   * The refs of those of {@code simIds} that this launcher finds running although Cascade never
   * stored their ref (it stopped between the launch and the write): Cascade adopts them instead of
   * launching them twice. Empty when it finds none or cannot look.
   */
  default Map<String, String> findRunning(Set<String> simIds) {
    return Map.of();
  }

  /**
   * True when this launcher knows that nothing of the sim runs any more (its process or sandbox is
   * gone); false while it runs, or when the launcher cannot tell. Asked after a restart, for sims
   * an earlier process launched.
   */
  default boolean hasEnded(String launcherRef) {
    return false;
  }

  /** Releases the launcher's own resources; running sims are left alone. */
  @Override
  default void close() {}
}
