package dev.cascade.core.internal.run;

import dev.cascade.core.Sim;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.Outcome;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.json.ApiJson;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Moves sims along {@code SIM_TRANSITIONS}, each move stored with its {@code sim} event in one
 * transaction, so the database and the event stream never disagree.
 */
public final class SimMoves {

  private final Database database;
  private final SimRepository sims;
  private final EventLog events;
  private final SimOutput outputs;
  private final SlotQueue slots;
  private final Clock clock;
  private final AtomicLong successes = new AtomicLong();

  public SimMoves(
      Database database,
      SimRepository sims,
      EventLog events,
      SimOutput outputs,
      SlotQueue slots,
      Clock clock) {
    this.database = database;
    this.sims = sims;
    this.events = events;
    this.outputs = outputs;
    this.slots = slots;
    this.clock = clock;
  }

  /**
   * How many sims succeeded in this process so far: what earlier sims took ({@code TraceHistory})
   * changes only when this does.
   */
  long successes() {
    return successes.get();
  }

  /**
   * Moves the sim from {@code expectedFrom} (null: any state) to {@code to} in its own transaction;
   * false when the move was refused.
   */
  public boolean move(String simId, SimState expectedFrom, SimState to, Outcome outcome) {
    boolean moved =
        database.write(connection -> moveIn(connection, simId, expectedFrom, to, outcome));
    committed(moved, simId, to);
    return moved;
  }

  /**
   * Starts a launch: stamps {@code launched_at} and moves a pending sim to {@code launching} in one
   * transaction, so a crash never leaves a sim launching with no time to measure its silence from.
   * A sim an earlier process left launching without a launcher ref is stamped again, for its
   * relaunch. False when the sim is neither (cancelled while it waited, or launched already).
   */
  boolean startLaunch(String simId, Instant at) {
    boolean moved =
        database.write(
            connection -> {
              if (!sims.recordLaunchStarted(connection, simId, at)) {
                return false;
              }
              SimState now = sims.find(connection, simId).orElseThrow().state();
              return now == SimState.LAUNCHING
                  || moveIn(connection, simId, SimState.PENDING, SimState.LAUNCHING, Outcome.NONE);
            });
    committed(moved, simId, SimState.LAUNCHING);
    return moved;
  }

  /**
   * The move inside the caller's write transaction, with its event; call {@link #committed} once
   * the transaction has committed.
   */
  boolean moveIn(
      Connection connection, String simId, SimState expectedFrom, SimState to, Outcome outcome)
      throws SQLException {
    if (!sims.move(connection, simId, expectedFrom, to, outcome)) {
      return false;
    }
    appendSimEvent(connection, simId);
    return true;
  }

  /**
   * After a commit that moved the sim: wakes event streams; a finished sim's parser and slot are
   * freed (the next waiting sim starts).
   */
  void committed(boolean moved, String simId, SimState to) {
    if (!moved) {
      return;
    }
    if (to == SimState.SUCCEEDED) {
      successes.incrementAndGet();
    }
    events.committed();
    if (to.isFinished()) {
      outputs.release(simId); // parses what is left and frees the sim's parser
      slots.release(simId);
    }
  }

  /**
   * Stores a sim's peak memory when it is higher than the stored one, with a {@code sim} event so
   * the sim card shows it.
   */
  void recordPeakMemory(String simId, long peakBytes) {
    boolean changed =
        database.write(
            connection -> {
              if (!sims.recordPeakMemory(connection, simId, peakBytes)) {
                return false;
              }
              appendSimEvent(connection, simId);
              return true;
            });
    if (changed) {
      events.committed();
    }
  }

  /** Appends the sim's {@code sim} event, the sim as it is in the caller's transaction. */
  void appendSimEvent(Connection connection, String simId) throws SQLException {
    Sim sim = sims.find(connection, simId).orElseThrow();
    events.append(
        connection,
        sim.runId(),
        simId,
        SimEvent.Kind.SIM,
        clock.instant(),
        ApiJson.toJson(ApiJson.writeSim(sim)));
  }
}
