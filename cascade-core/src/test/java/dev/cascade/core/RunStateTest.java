package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class RunStateTest {

  /** Every row of the run-state table in the Concepts seed (and the Runs guide), verbatim. */
  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          running, succeeded     | active
          succeeded, succeeded   | succeeded
          succeeded, failed      | partial
          failed, failed         | failed
          cancelled, failed      | cancelled
          cancelled, succeeded   | partial
          cancelled, cancelled   | cancelled
          """)
  void of_matchesEverySeedTableRow(String simStates, String runState) {
    assertThat(RunState.of(states(simStates))).isEqualTo(runState(runState));
  }

  /** The rules of DESIGN.md section 3 beyond the seed's rows. */
  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          pending, succeeded            | active
          launching, succeeded          | active
          lost, failed                  | active
          pending                       | active
          launching                     | active
          running                       | active
          lost                          | active
          pending, cancelled, cancelled | active
          succeeded                     | succeeded
          failed                        | failed
          cancelled                     | cancelled
          succeeded, failed, cancelled  | partial
          succeeded, cancelled, failed  | partial
          failed, failed, failed        | failed
          failed, cancelled, failed     | cancelled
          """)
  void of_followsTheDesignRules(String simStates, String runState) {
    assertThat(RunState.of(states(simStates))).isEqualTo(runState(runState));
  }

  @ParameterizedTest(name = "[{0}] reversed -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          running, succeeded     | active
          succeeded, failed      | partial
          cancelled, failed      | cancelled
          cancelled, succeeded   | partial
          pending, succeeded     | active
          """)
  void of_doesNotDependOnSimOrder(String simStates, String runState) {
    List<SimState> reversed = new ArrayList<>(states(simStates));
    Collections.reverse(reversed);
    assertThat(RunState.of(reversed)).isEqualTo(runState(runState));
  }

  @Test
  void of_refusesARunWithoutSims() {
    assertThatThrownBy(() -> RunState.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one sim");
  }

  @Test
  void wireName_isLowerCase() {
    assertThat(RunState.PARTIAL.wireName()).isEqualTo("partial");
  }

  private static List<SimState> states(String csv) {
    return Arrays.stream(csv.split(",")).map(String::strip).map(SimState::fromWireName).toList();
  }

  private static RunState runState(String name) {
    return RunState.valueOf(name.strip().toUpperCase(Locale.ROOT));
  }
}
