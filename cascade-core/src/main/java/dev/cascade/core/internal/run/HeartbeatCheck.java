package dev.cascade.core.internal.run;

import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.SimRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of the heartbeat monitor: a running sim silent for the heartbeat timeout becomes {@code
 * lost}; a sim silent for 10 times the timeout becomes {@code failed} with {@code no heartbeat for
 * <n>s} and is stopped. Silence counts from the last heartbeat, or from the launch when there was
 * none, and never from before this process started: after a restart every sim gets a full window to
 * report again (so a heartbeat held only in memory ({@link HeartbeatTimes}) when the app died does
 * not count against the sim).
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
  private final HeartbeatTimes times;

  public HeartbeatCheck(
      SimRepository sims,
      HeartbeatTimes times,
      SimMoves moves,
      Launches launches,
      RunSettings settings,
      Clock clock,
      QueuedSims queued) {
    this.queued = queued;
    this.times = times;
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
  private Instant silentSince(Sim sim, Instant unwrittenBeat) {
    Instant beat = sim.lastHeartbeatAt();
    if (unwrittenBeat != null && (beat == null || unwrittenBeat.isAfter(beat))) {
      beat = unwrittenBeat; // only in memory yet (HeartbeatTimes)
    }
    Instant since =
        beat != null ? beat : sim.launchedAt() != null ? sim.launchedAt() : sim.createdAt();
    return since.isBefore(startedAt) ? startedAt : since;
  }

  @Override
  public void run() {
    Instant now = clock.instant();
    // Before the rows: a time written meanwhile is then in one or the other.
    Map<String, Instant> unwritten = times.unwritten();
    for (Sim sim : sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST)) {
      if (queued.isQueued(sim.id())) {
        continue; // a sim waiting in its launcher's queue cannot heartbeat yet
      }
      Duration silent =
          Duration.between(
              queued.silenceStart(sim.id(), silentSince(sim, unwritten.get(sim.id()))), now);
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
