package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.testkit.FakeAccelSim;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code cascade doctor} as a user runs it: the list or JSON, and the exit code. */
final class DoctorCommandIT {

  @TempDir Path folder;

  private final CapturedCli cli = new CapturedCli();

  private int doctor(Map<String, String> environment, String... args) {
    CommandLine commandLine = CascadeCommand.newCommandLine();
    DoctorCommand command = commandLine.getSubcommands().get("doctor").getCommand();
    command.environment = environment;
    List<String> all =
        new ArrayList<>(List.of("doctor", "--data-dir", folder.resolve("data").toString()));
    all.addAll(List.of(args));
    return cli.run(commandLine, all.toArray(String[]::new));
  }

  private static Map<String, String> path() {
    return Map.of("PATH", System.getenv("PATH"));
  }

  @Test
  void aWorkingAccelSim_passes_asJson() throws Exception {
    Path accelSim = FakeAccelSim.withScript(folder, FakeAccelSim.printsTheLog());

    int exit = doctor(path(), "--accelsim-dir", accelSim.toString(), "--json");

    assertThat(exit).as(cli.out + "\n" + cli.err).isZero();
    JsonNode document = new ObjectMapper().readTree(cli.out.toString());
    assertThat(document.get("passed").asBoolean()).isTrue();
    List<String> ids = new ArrayList<>();
    document.get("checks").forEach(check -> ids.add(check.get("id").asText()));
    assertThat(ids)
        .containsExactly(
            "java",
            "data_dir",
            "emulator",
            "accelsim_dir",
            "binary",
            "libraries",
            "configs",
            "smoke");
    JsonNode smoke = document.get("checks").get(7);
    assertThat(smoke.get("status").asText()).isEqualTo("pass");
    assertThat(smoke.get("detail").asText()).contains("1 kernel on SM7_QV100");
    assertThat(smoke.get("fix").isNull()).isTrue();
  }

  @Test
  void theAccelSimDirFromTheEnvironment_isChecked_andAFailureExitsOne() throws Exception {
    Path accelSim = FakeAccelSim.withConfig(folder); // no accel-sim.out
    Map<String, String> environment =
        Map.of("PATH", System.getenv("PATH"), "CASCADE_ACCELSIM_DIR", accelSim.toString());

    int exit = doctor(environment);

    assertThat(exit).isEqualTo(1);
    assertThat(cli.out.toString())
        .contains(
            "fail  accel-sim.out: no accel-sim.out at " + accelSim.resolve(FakeAccelSim.BINARY))
        .contains("      fix: build it: cd " + accelSim)
        .contains("skip  one-kernel trace through accel-sim.out: not run: accel-sim.out failed")
        .endsWith("1 check failed" + System.lineSeparator());
  }

  @Test
  void withoutAccelSim_passes_andSaysHowToPointAtOne() {
    int exit = doctor(path());

    assertThat(exit).as(cli.out.toString()).isZero();
    assertThat(cli.out.toString())
        .contains("pass  Java: Java ")
        .contains("pass  emulator runs the demo trace: the demo trace (5 kernels) on SM90_H100")
        .contains("skip  Accel-Sim folder: no Accel-Sim configured")
        .contains("set CASCADE_ACCELSIM_DIR to its folder, or pass --accelsim-dir DIR")
        .endsWith("all checks passed" + System.lineSeparator());
  }

  @Test
  void aTimeLimitOutOfRange_isAUsageError() {
    int exit = doctor(path(), "--time-limit", "0");

    assertThat(exit).isEqualTo(2);
    assertThat(cli.err.toString()).contains("--time-limit must be 1 to 3600 seconds; got 0");
  }
}
