package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SimStateMachineTest {

  /** The table of DESIGN.md section 3, as written there; not read back from SIM_TRANSITIONS. */
  private static final String DESIGN_TABLE =
      """
      pending   | launching
      launching | running, succeeded, failed
      running   | lost, succeeded, failed
      lost      | running, succeeded, failed
      """;

  /** "every unfinished state | failed, cancelled". */
  private static final List<String> UNFINISHED = List.of("pending", "launching", "running", "lost");

  private static final Set<String> ALLOWED = allowedMoves();

  private static Set<String> allowedMoves() {
    Set<String> allowed = new HashSet<>();
    for (String row : DESIGN_TABLE.strip().split("\n")) {
      String[] cells = row.split("\\|");
      for (String to : cells[1].split(",")) {
        allowed.add(cells[0].strip() + "->" + to.strip());
      }
    }
    for (String from : UNFINISHED) {
      allowed.add(from + "->failed");
      allowed.add(from + "->cancelled");
    }
    return allowed;
  }

  static Stream<Arguments> everyPairOfStates() {
    List<Arguments> pairs = new ArrayList<>();
    for (SimState from : SimState.values()) {
      for (SimState to : SimState.values()) {
        pairs.add(Arguments.of(from, to));
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("everyPairOfStates")
  void allows_exactlyTheMovesOfTheDesignTable(SimState from, SimState to) {
    boolean expected = ALLOWED.contains(from.wireName() + "->" + to.wireName());

    assertThat(SimStateMachine.allows(from, to))
        .as("%s -> %s", from.wireName(), to.wireName())
        .isEqualTo(expected);
    assertThat(SimStateMachine.SIM_TRANSITIONS.get(from).contains(to)).isEqualTo(expected);
  }

  @Test
  void simTransitions_listsEveryState() {
    assertThat(SimStateMachine.SIM_TRANSITIONS).containsOnlyKeys(SimState.values());
  }

  @Test
  void simTransitions_allowsNoMoveOutOfAFinishedState() {
    for (SimState state : SimState.values()) {
      assertThat(SimStateMachine.SIM_TRANSITIONS.get(state).isEmpty())
          .as(state.wireName())
          .isEqualTo(!UNFINISHED.contains(state.wireName()));
    }
  }

  @Test
  void simTransitions_cannotBeChanged() {
    assertThatThrownBy(
            () -> SimStateMachine.SIM_TRANSITIONS.get(SimState.SUCCEEDED).add(SimState.RUNNING))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> SimStateMachine.SIM_TRANSITIONS.remove(SimState.PENDING))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void fromWireName_refusesAnUnknownStateNamingIt() {
    assertThatThrownBy(() -> SimState.fromWireName("done"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"done\"");
  }
}
