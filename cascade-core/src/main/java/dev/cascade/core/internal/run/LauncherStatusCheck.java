package dev.cascade.core.internal.run;

import dev.cascade.core.FailureClass;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.LauncherStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One poll of the launcher's own view of the launched sims ({@link Launcher#status}): a sim its
 * launcher holds in a queue is marked queued, with the reason, and not counted silent; a sim whose
 * task ended without the sim's final report becomes {@code failed} with the launcher's words as its
 * error. An end must be seen on two polls in a row, so that a final report on its way wins. A sim
 * that failed by itself in the last minutes because its task was ended from outside (a Slurm time
 * limit sends SIGTERM, and the sim reports {@code cancelled}: {@link LauncherStatus.Phase#KILLED})
 * gets the launcher's words in front of its error, so users see why. A launcher that cannot be
 * asked ({@link LauncherStatus.Phase#UNKNOWN}) decides nothing, and keeps a sim that never reported
 * queued.
 */
public final class LauncherStatusCheck implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(LauncherStatusCheck.class);

  private final Launcher launcher;
  private final SimRepository sims;
  private final SimMoves moves;
  private final QueuedSims queued;
  private final Clock clock;
  private final Set<String> seenEnded = ConcurrentHashMap.newKeySet();
  private final Set<String> explained = ConcurrentHashMap.newKeySet();

  public LauncherStatusCheck(
      Launcher launcher, SimRepository sims, SimMoves moves, QueuedSims queued, Clock clock) {
    this.launcher = launcher;
    this.sims = sims;
    this.moves = moves;
    this.queued = queued;
    this.clock = clock;
  }

  /** How long after its end a failed sim's error may still get its launcher's reason. */
  private static final Duration EXPLAIN_WITHIN = Duration.ofMinutes(3);

  /** How long after a followed sim ends its peak memory is asked of the launcher. */
  private static final Duration PEAK_WITHIN = Duration.ofMinutes(10);

  /** The sims seen live at the last poll, by id: their launcher refs. */
  private final Map<String, String> lastLive = new ConcurrentHashMap<>();

  /** Ended sims whose peak memory is still to be asked for: ref and until when. */
  private record PeakWanted(String launcherRef, Instant until) {}

  private final Map<String, PeakWanted> peaksWanted = new ConcurrentHashMap<>();

  /** Set once the launcher answered anything: launchers that know nothing cost no more reads. */
  private volatile boolean launcherAnswers;

  @Override
  public void run() {
    pollLive();
    if (launcherAnswers) {
      explainRecentFailures();
      recordPeaks();
    }
  }

  /**
   * Asks the launcher for the peak memory of the sims that ended since they were last seen live,
   * for {@link #PEAK_WITHIN} after, and stores each figure once it comes (Slurm's accounting has it
   * some seconds after the task ends).
   */
  private void recordPeaks() {
    Instant now = clock.instant();
    peaksWanted.values().removeIf(wanted -> now.isAfter(wanted.until()));
    if (peaksWanted.isEmpty()) {
      return;
    }
    Map<String, Long> peaks =
        launcher.peakMemory(
            peaksWanted.values().stream().map(PeakWanted::launcherRef).distinct().toList());
    for (Map.Entry<String, PeakWanted> wanted : Map.copyOf(peaksWanted).entrySet()) {
      Long bytes = peaks.get(wanted.getValue().launcherRef());
      if (bytes != null && bytes >= 0) {
        peaksWanted.remove(wanted.getKey());
        moves.recordPeakMemory(wanted.getKey(), bytes);
      }
    }
  }

  private void explainRecentFailures() {
    Instant since = clock.instant().minus(EXPLAIN_WITHIN);
    List<Sim> recent =
        sims.findInStates(SimState.FAILED).stream()
            .filter(sim -> sim.launcherRef() != null)
            .filter(sim -> Objects.equals(sim.launcherName(), launcher.name()))
            .filter(sim -> sim.finishedAt() != null && sim.finishedAt().isAfter(since))
            .toList();
    explained.retainAll(recent.stream().map(Sim::id).collect(Collectors.toSet()));
    List<Sim> failed = recent.stream().filter(sim -> !explained.contains(sim.id())).toList();
    if (failed.isEmpty()) {
      return;
    }
    Map<String, LauncherStatus> statuses =
        launcher.status(failed.stream().map(Sim::launcherRef).distinct().toList());
    for (Sim sim : failed) {
      LauncherStatus status = statuses.get(sim.launcherRef());
      if (status == null
          || status.phase() == LauncherStatus.Phase.QUEUED
          || status.phase() == LauncherStatus.Phase.RUNNING
          || status.phase() == LauncherStatus.Phase.UNKNOWN) {
        continue;
      }
      explained.add(sim.id());
      String error = sim.error() == null ? "" : sim.error();
      if (status.phase() == LauncherStatus.Phase.KILLED && !error.contains(status.detail())) {
        String fuller = status.detail() + (error.isEmpty() ? "" : "; the sim reported: " + error);
        sims.amendError(
            sim.id(),
            fuller,
            status.failure() != null
                ? status.failure()
                : FailureClass.classify(fuller, sim.exitCode(), List.of()));
        log.warn("sim {} failed: {}", sim.id(), fuller);
      }
    }
  }

  private void pollLive() {
    List<Sim> live =
        sims.findInStates(SimState.LAUNCHING, SimState.RUNNING, SimState.LOST).stream()
            .filter(sim -> sim.launcherRef() != null)
            .filter(sim -> Objects.equals(sim.launcherName(), launcher.name()))
            .toList();
    Set<String> liveIds = live.stream().map(Sim::id).collect(Collectors.toSet());
    if (launcherAnswers) { // a launcher that knows nothing (local) is asked for no peaks either
      Instant peakUntil = clock.instant().plus(PEAK_WITHIN);
      lastLive.forEach(
          (simId, ref) -> {
            if (!liveIds.contains(simId)) {
              peaksWanted.put(simId, new PeakWanted(ref, peakUntil)); // ended since the last poll
            }
          });
      lastLive.clear();
      live.forEach(sim -> lastLive.put(sim.id(), sim.launcherRef()));
    }
    queued.retain(liveIds);
    seenEnded.retainAll(liveIds);
    if (live.isEmpty()) {
      return;
    }
    Map<String, LauncherStatus> statuses =
        launcher.status(live.stream().map(Sim::launcherRef).distinct().toList());
    if (!statuses.isEmpty()) {
      launcherAnswers = true;
    }
    for (Sim sim : live) {
      LauncherStatus status = statuses.get(sim.launcherRef());
      if (status != null && status.phase() == LauncherStatus.Phase.UNKNOWN) {
        seenEnded.remove(sim.id());
        // Nothing is decided while the launcher cannot be asked. A sim that has not reported
        // since its launch may still wait in its queue (a Slurm task PENDING while slurmctld is
        // down): it stays queued, not silent, until the launcher answers again.
        if (sim.state() == SimState.LAUNCHING || queued.isQueued(sim.id())) {
          if (queued.mark(sim.id(), status.detail(), clock.instant())) {
            log.info("sim {} kept queued: {}", sim.id(), status.detail());
          }
        }
      } else if (status == null || status.phase() == LauncherStatus.Phase.RUNNING) {
        queued.clear(sim.id());
        seenEnded.remove(sim.id());
      } else if (status.phase() == LauncherStatus.Phase.QUEUED) {
        seenEnded.remove(sim.id());
        if (queued.mark(sim.id(), status.detail(), clock.instant())) {
          log.info("sim {} queued by {}: {}", sim.id(), launcher.name(), status.detail());
        }
      } else if (!seenEnded.add(sim.id())) {
        queued.clear(sim.id());
        seenEnded.remove(sim.id());
        String error =
            "its "
                + launcher.name()
                + " task "
                + sim.launcherRef()
                + " ended without the sim's final report: "
                + status.detail();
        // The launcher's typed reason wins; without one the error's words are classified.
        if (moves.move(
            sim.id(), null, SimState.FAILED, new Outcome(error, null, status.failure()))) {
          log.warn("sim {} failed: {}", sim.id(), error);
        }
      }
    }
  }
}
