package dev.cascade.core;

import static dev.cascade.core.SimState.CANCELLED;
import static dev.cascade.core.SimState.FAILED;
import static dev.cascade.core.SimState.LAUNCHING;
import static dev.cascade.core.SimState.LOST;
import static dev.cascade.core.SimState.PENDING;
import static dev.cascade.core.SimState.RUNNING;
import static dev.cascade.core.SimState.SUCCEEDED;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** The one list of allowed sim state moves. Every other move is ignored by the run manager. */
public final class SimStateMachine {

  /**
   * From each state, the states a sim may move to. {@code launching} may go straight to {@code
   * succeeded} or {@code failed} because heartbeats can arrive before the launch call returns;
   * {@code failed} and {@code cancelled} are reachable from every unfinished state.
   */
  public static final Map<SimState, Set<SimState>> SIM_TRANSITIONS = buildTransitions();

  private SimStateMachine() {}

  /** True when {@code from} may move to {@code to}. */
  public static boolean allows(SimState from, SimState to) {
    return SIM_TRANSITIONS.get(from).contains(to);
  }

  private static Map<SimState, Set<SimState>> buildTransitions() {
    Map<SimState, Set<SimState>> moves = new EnumMap<>(SimState.class);
    moves.put(PENDING, EnumSet.of(LAUNCHING));
    moves.put(LAUNCHING, EnumSet.of(RUNNING, SUCCEEDED, FAILED));
    moves.put(RUNNING, EnumSet.of(LOST, SUCCEEDED, FAILED));
    moves.put(LOST, EnumSet.of(RUNNING, SUCCEEDED, FAILED));
    moves.put(SUCCEEDED, EnumSet.noneOf(SimState.class));
    moves.put(FAILED, EnumSet.noneOf(SimState.class));
    moves.put(CANCELLED, EnumSet.noneOf(SimState.class));
    for (SimState state : SimState.values()) {
      if (!state.isFinished()) {
        moves.get(state).add(FAILED);
        moves.get(state).add(CANCELLED);
      }
    }
    Map<SimState, Set<SimState>> frozen = new EnumMap<>(SimState.class);
    moves.forEach((from, to) -> frozen.put(from, Collections.unmodifiableSet(to)));
    return Collections.unmodifiableMap(frozen);
  }
}
