package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

final class SimAgentCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    picocli.CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @Test
  void help_isTheAgentsOwn() {
    assertThat(run("sim-agent", "--help")).isZero();
    assertThat(out.toString())
        .contains("Usage: sim-agent [options] -- CMD [ARGS...]")
        .contains("--kill-grace-millis");
  }

  @Test
  void commandAfterTheDoubleDash_isLeftToTheAgent() {
    // Options after '--' belong to the simulator: without the sim's environment the agent stops
    // at its first check, which shows the arguments reached it untouched.
    int exit =
        run("sim-agent", "--spool", "/tmp/x", "--", "accel-sim.out", "--help", "-trace", "t");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("CASCADE_MAIN_URL is not set");
  }

  @Test
  void unknownOption_isAUsageError() {
    assertThat(run("sim-agent", "--frobnicate", "--", "true")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown option '--frobnicate'");
  }

  @Test
  void noCommand_isAUsageError() {
    assertThat(run("sim-agent")).isEqualTo(2);
    assertThat(err.toString()).contains("no simulator");
  }

  @Test
  void cascadeHelp_listsBothCommands() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("emulate").contains("sim-agent");
  }
}
