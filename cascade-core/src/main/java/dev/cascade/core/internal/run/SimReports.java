package dev.cascade.core.internal.run;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.FailureClass;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.spi.Simulator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What sims report (DESIGN.md section 7): heartbeats, output chunks, and the tokens that prove a
 * sim is who it says. Not public API: only the HTTP layer's sim endpoints call it.
 */
public final class SimReports {

  private static final Logger log = LoggerFactory.getLogger(SimReports.class);

  /** Lines at the end of a failed sim's log read for its failure class (an assertion's line). */
  private static final int FAILURE_LOG_LINES = 40;

  private final Database database;
  private final SimRepository sims;
  private final SimMoves moves;
  private final SimOutput outputs;
  private final Launches launches;
  private final HeartbeatTimes times;
  private final Clock clock;

  private final Simulator simulator;

  /**
   * The peak each running sim's agent reported, as last stored: written again once it grows. A sim
   * that ends without its final heartbeat (killed, lost) is forgotten once it stops reporting.
   */
  private final Map<String, Long> agentPeaks =
      Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).<String, Long>build().asMap();

  public SimReports(
      Database database,
      SimRepository sims,
      SimMoves moves,
      SimOutput outputs,
      Launches launches,
      HeartbeatTimes times,
      Clock clock,
      Simulator simulator) {
    this.simulator = simulator;
    this.times = times;
    this.clock = clock;
    this.database = database;
    this.sims = sims;
    this.moves = moves;
    this.outputs = outputs;
    this.launches = launches;
  }

  /**
   * Applies a sim's heartbeat: records it, moves the sim along {@code SIM_TRANSITIONS}, and answers
   * {@code cancel: true} once its run was cancelled. A final heartbeat ({@code succeeded} or {@code
   * failed}) is applied only once every chunk it counts is held; until then the reply lists the
   * missing ones. The heartbeat's time and the move it makes commit together.
   */
  /**
   * Stores the peak memory the sim's agent measured (its simulator's process tree), where it is
   * above what is stored: what Sail sims and Slurm sims without accounting have, and a floor for
   * the others, whose launcher measures the whole tree. A routine heartbeat writes only when the
   * peak grew by a tenth since the last write.
   */
  private void notePeakMemory(String simId, Heartbeat heartbeat) {
    long peak = heartbeat.peakMemoryBytes();
    if (peak > 0) {
      Long stored = agentPeaks.get(simId);
      if (stored == null || peak > stored + stored / 10 || (heartbeat.isFinal() && peak > stored)) {
        agentPeaks.put(simId, peak);
        moves.recordPeakMemory(simId, peak);
      }
    }
    if (heartbeat.isFinal()) {
      agentPeaks.remove(simId);
    }
  }

  public HeartbeatReply heartbeat(String simId, Heartbeat heartbeat) {
    SimState state = state(simId); // the state alone: a routine heartbeat needs no more
    if (state.isFinished()) {
      times.beat(simId, clock.instant());
      return state == SimState.CANCELLED ? HeartbeatReply.CANCEL : HeartbeatReply.CONTINUE;
    }
    notePeakMemory(simId, heartbeat);
    // A running sim's heartbeat that is not its last changes nothing but the heartbeat time.
    SimState alive = state == SimState.RUNNING ? null : SimState.RUNNING;
    if (!heartbeat.isFinal()) {
      if (alive == null) {
        times.beat(simId, clock.instant()); // written within a second, with others
      } else {
        record(simId, alive, Outcome.NONE);
      }
      return HeartbeatReply.CONTINUE;
    }
    if (!outputs.holdsAll(simId, heartbeat.chunks())) {
      // Alive, but not done until its whole output is here.
      record(simId, alive, Outcome.NONE);
      return new HeartbeatReply(false, outputs.missing(simId, heartbeat.chunks()));
    }
    outputs.finish(simId);
    SimState finalState = heartbeat.state();
    String error = heartbeat.error();
    if (finalState == SimState.SUCCEEDED) {
      Optional<String> logFailure = outputs.failureInLog(simId);
      if (logFailure.isPresent()) {
        finalState = SimState.FAILED;
        error = logFailure.get();
      }
    } else if (error == null || error.isBlank()) {
      error =
          "the simulator failed"
              + (heartbeat.exitCode() == null ? "" : " with exit code " + heartbeat.exitCode());
    }
    FailureClass failureClass =
        finalState == SimState.FAILED
            ? simulator.classify(
                error, heartbeat.exitCode(), outputs.logTail(simId, FAILURE_LOG_LINES))
            : null;
    Optional<String> oomKill =
        finalState == SimState.FAILED ? launches.outOfMemoryKill(simId) : Optional.empty();
    if (oomKill.isPresent()) {
      // The exit status says SIGKILL; the cgroup's count says who sent it.
      failureClass = FailureClass.OUT_OF_MEMORY;
      error = error + "; " + oomKill.get();
    }
    if (record(simId, finalState, new Outcome(error, heartbeat.exitCode(), failureClass))) {
      log.info("sim {} {}", simId, finalState.wireName() + (error == null ? "" : ": " + error));
      launches.stopAfterFinish(simId);
    }
    return state(simId) == SimState.CANCELLED ? HeartbeatReply.CANCEL : HeartbeatReply.CONTINUE;
  }

  /**
   * Stores chunk {@code seq} (from 0) of a sim's output. Idempotent: a chunk sent again is stored
   * once. Chunks may arrive out of order; they are parsed in order once the gap is filled. Returns
   * false for a chunk already held.
   */
  public boolean putChunk(String simId, long seq, byte[] bytes) {
    return putChunk(simId, seq, bytes, null);
  }

  /**
   * {@link #putChunk(String, long, byte[])} of a chunk whose last bytes the sim's agent read at
   * {@code readAt} (null: not said, timed by its arrival).
   */
  public boolean putChunk(String simId, long seq, byte[] bytes, Instant readAt) {
    if (seq < 0) {
      throw new CascadeException(
          ErrorCode.INVALID, "chunk seq must be 0 or more; got " + seq, "seq");
    }
    return outputs.accept(simId, seq, bytes, readAt).stored();
  }

  /** Whether {@code token} is the one sim {@code simId} was launched with. */
  public boolean isSimToken(String simId, String token) {
    return launches.tokens().isValid(simId, token);
  }

  /** Stamps the heartbeat and, when {@code to} is given, moves the sim, in one transaction. */
  private boolean record(String simId, SimState to, Outcome outcome) {
    boolean moved =
        database.write(
            connection -> {
              sims.recordHeartbeat(connection, simId, clock.instant());
              return to != null && moves.moveIn(connection, simId, null, to, outcome);
            });
    if (to != null) {
      moves.committed(moved, simId, to);
    }
    return moved;
  }

  private SimState state(String simId) {
    try {
      return sims.state(simId);
    } catch (CascadeException e) {
      throw e.code() == ErrorCode.NOT_FOUND ? RunService.simNotFound(simId) : e;
    }
  }
}
