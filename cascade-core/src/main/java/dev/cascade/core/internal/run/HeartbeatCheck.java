package dev.cascade.core.internal.run;

import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.internal.store.SimRepository.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of the heartbeat monitor: a running sim silent for the heartbeat timeout becomes {@code
 * lost}; a sim silent for 10 times the timeout becomes {@code failed} with {@code no heartbeat for
 * <n>s} and is stopped. Silence counts from the last heartbeat, or from the launch when there was
 * none, and never from before this process started: after a restart every sim gets a full window to
 * report again.
 */
public final class HeartbeatCheck implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(HeartbeatCheck.class);

  private final SimRepository sims;
  private final SimMoves moves;
  private final Launches launches;
  private final RunSettings settings;
  private final Clock clock;
  private final Instant startedAt;
  private final QueuedSims queued;

  public HeartbeatCheck(
      SimRepository sims,
      SimMoves moves,
      Launches launches,
      RunSettings settings,
      Clock clock,
      QueuedSims queued) {
    this.queued = queued;
    this.sims = sims;
    this.moves = moves;
    this.launches = launches;
    this.settings = settings;
    this.clock = clock;
    this.startedAt = clock.instant();
  }

  /**
   * When the sim's silence began: its last heartbeat, else its launch, else its creation; but never
   * before this process started, because silence while the app itself was down is not the sim's
   * fault (its reports had nowhere to go).
   */
  private Instant silentSince(Sim sim) {
    Instant since =
        sim.lastHeartbeatAt() != null
            ? sim.lastHeartbeatAt()
            : sim.launchedAt() != null ? sim.launchedAt() : sim.createdAt();
    return since.isBefore(startedAt) ? startedAt : since;
  }

  @Override
  public void run() {
    Instant now = clock.instant();
    for (Sim sim : sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST)) {
      if (queued.isQueued(sim.id())) {
        continue; // a sim waiting in its launcher's queue cannot heartbeat yet
      }
      Duration silent = Duration.between(queued.silenceStart(sim.id(), silentSince(sim)), now);
      if (silent.compareTo(settings.giveUpAfter()) >= 0) {
        String error = "no heartbeat for " + silent.toSeconds() + "s";
        if (moves.move(sim.id(), null, SimState.FAILED, Outcome.error(error))) {
          log.warn("sim {} failed: {}", sim.id(), error);
          launches.stopLater(sim.id());
        }
      } else if (sim.state() == SimState.RUNNING
          && silent.compareTo(settings.heartbeatTimeout()) >= 0) {
        if (moves.move(sim.id(), null, SimState.LOST, Outcome.NONE)) {
          log.warn("sim {} lost: no heartbeat for {}s", sim.id(), silent.toSeconds());
        }
      }
    }
  }
}
