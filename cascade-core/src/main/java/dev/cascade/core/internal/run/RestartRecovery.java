package dev.cascade.core.internal.run;

import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.SimRepository;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a start does about the sims an earlier process left behind, by asking the launcher: sims
 * whose process is gone fail at once, and half-launched sims whose process still runs are adopted.
 * (Sims left pending or half-launched with no process are launched again by {@link RunService}.)
 */
final class RestartRecovery {

  private static final Logger log = LoggerFactory.getLogger(RestartRecovery.class);

  private final SimLauncher launcher;
  private final SimRepository sims;
  private final SimMoves moves;
  private final Clock clock;

  RestartRecovery(SimLauncher launcher, SimRepository sims, SimMoves moves, Clock clock) {
    this.launcher = launcher;
    this.sims = sims;
    this.moves = moves;
    this.clock = clock;
  }

  /**
   * Fails the unfinished sims that an earlier process launched and whose process or sandbox the
   * launcher knows is gone, so they are not left to the heartbeat give-up.
   */
  void failEnded() {
    for (Sim sim : sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST)) {
      if (launcher.hasEnded(sim)) {
        String error =
            "its process ("
                + sim.launcherRef()
                + ") ended without reporting its end while Cascade was down";
        if (moves.move(sim.id(), null, SimState.FAILED, Outcome.error(error))) {
          log.warn("sim {} failed: {}", sim.id(), error);
        }
      }
    }
  }

  /**
   * Of the sims an earlier process left launching without a launcher ref, those whose process the
   * launcher finds running get their ref stored (adopted), so they are not launched twice.
   *
   * @return the ids of the adopted sims
   */
  Set<String> adoptRunning(List<Sim> withoutRef) {
    Set<String> ids = new HashSet<>();
    withoutRef.forEach(sim -> ids.add(sim.id()));
    Map<String, String> found = launcher.findRunning(ids);
    found.forEach(
        (simId, ref) -> {
          sims.recordLaunch(simId, launcher.launcherName(), ref, clock.instant());
          log.info("sim {}: its process {} outlived the app's stop; adopted", simId, ref);
        });
    return found.keySet();
  }
}
