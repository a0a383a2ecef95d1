package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.SimCommands;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SimulatorRoutesTest {

  private static final Path DATA = Path.of("data");

  @Test
  void describe_theDefaultEmulator_statesItsPaceAndWhatADemoSimTakes() {
    Map<String, Object> body =
        SimulatorRoutes.describe("accel-sim", SimCommands.emulator(SimCommands.DEMO_SPEED, DATA));

    assertThat(body)
        .containsEntry("name", "accel-sim")
        .containsEntry("runs", "emulator")
        .containsEntry("cycles_per_second", 4000.0)
        .containsEntry("demo_sim_seconds", 13.5);
    assertThat((String) body.get("note"))
        .startsWith("The emulator simulates about 4,000 cycles per second")
        .contains("a sim of the demo trace (about 54,000 cycles) takes about 14 s")
        .contains("CASCADE_EMULATE_SPEED=0");
  }

  @Test
  void describe_anEmulatorAtFullSpeed_saysSo() {
    Map<String, Object> body =
        SimulatorRoutes.describe("accel-sim", SimCommands.emulator("0", DATA));

    assertThat(body).containsEntry("cycles_per_second", 0.0).containsEntry("demo_sim_seconds", 0.0);
    assertThat((String) body.get("note")).contains("as fast as it can");
  }

  @Test
  void describe_accelSimOrAnotherCommand_hasNoPace() {
    Map<String, Object> accelSim =
        SimulatorRoutes.describe(
            "accel-sim",
            SimCommands.accelSim(
                Path.of("/opt/accel-sim").resolve(SimCommands.ACCELSIM_BINARY), DATA));
    Map<String, Object> other = SimulatorRoutes.describe("accel-sim", List.of("my-sim", "--fast"));

    assertThat(accelSim)
        .containsEntry("runs", "accel-sim")
        .containsEntry("cycles_per_second", null);
    assertThat((String) accelSim.get("note")).contains("the real Accel-Sim");
    assertThat(other).containsEntry("runs", "command").containsEntry("demo_sim_seconds", null);
    assertThat((String) other.get("note")).contains("CASCADE_SIM_CMD").contains("my-sim");
  }
}
