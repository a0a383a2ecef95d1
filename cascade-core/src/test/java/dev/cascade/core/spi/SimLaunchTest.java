package dev.cascade.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.agent.SimContract;
import dev.cascade.agent.TestContracts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SimLaunchTest {

  private static final SimContract CONTRACT =
      TestContracts.of("s_1", "r_1", Path.of("/data"), Path.of("/data/traces/t1"));

  @Test
  void environment_isTheExtrasWithTheContractOverThem() {
    SimLaunch launch =
        new SimLaunch(
            CONTRACT,
            List.of("simulate"),
            Map.of("PATH", "/opt/bin", "CASCADE_SIM_ID", "s_other"),
            Path.of("/data/work/sims/s_1"),
            Path.of("/data/work/sims/s_1.out"));

    assertThat(launch.environment())
        .containsAllEntriesOf(CONTRACT.toEnvironment())
        .containsEntry("PATH", "/opt/bin")
        .containsEntry("CASCADE_SIM_ID", "s_1")
        .hasSize(CONTRACT.toEnvironment().size() + 1);
    assertThat(launch.simId()).isEqualTo("s_1");
    assertThat(launch.runId()).isEqualTo("r_1");
    assertThat(launch.replica()).isZero();
  }

  @Test
  void create_rejectsAnEmptyCommand() {
    assertThatThrownBy(
            () -> new SimLaunch(CONTRACT, List.of(), Map.of(), Path.of("/w"), Path.of("/w.out")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sim s_1: the command is empty");
  }
}
