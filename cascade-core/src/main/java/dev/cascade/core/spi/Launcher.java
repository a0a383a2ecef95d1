package dev.cascade.core.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

  /** Stops a sim. Idempotent: a ref that is already gone is not an error. */
  void stop(String launcherRef);

  /** Releases the launcher's own resources; running sims are left alone. */
  @Override
  default void close() {}
}
