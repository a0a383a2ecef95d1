package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sim agent in a JVM of its own, as launchers start it: its token arrives on stdin, never from
 * its environment, and the simulator it starts sees it neither way.
 */
final class AgentTokenIT {

  @TempDir Path dir;

  private FakeApp app;
  private Process agent;

  @AfterEach
  void stop() throws InterruptedException {
    if (agent != null && agent.isAlive()) {
      agent.destroy();
      if (!agent.waitFor(10, TimeUnit.SECONDS)) {
        agent.destroyForcibly().waitFor();
      }
    }
    if (app != null) {
      app.close();
    }
  }

  /** Runs the agent with a simulator that prints its environment and what its stdin holds. */
  private String runAgent(Map<String, String> extraEnv, String stdin) throws Exception {
    app = FakeApp.start();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path simulator = dir.resolve("simulator.sh");
    Files.writeString(
        simulator,
        "echo ENV-START; env; echo ENV-END; echo \"stdin=[$(cat)]\"; tr '\\0' ' ' <"
            + " /proc/$PPID/cmdline; echo\n");
    ProcessBuilder builder =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                SimAgentMain.classPath(),
                SimAgentMain.class.getName(),
                "--spool",
                dir.resolve("spool").toString(),
                "--chunk-millis",
                "100",
                "--heartbeat-millis",
                "100",
                "--",
                "sh",
                simulator.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("agent.log").toFile());
    builder.environment().remove(SimContract.SIM_TOKEN);
    builder.environment().put(SimContract.MAIN_URL, app.url().toString());
    builder.environment().put(SimContract.SIM_ID, "s_test");
    builder.environment().putAll(extraEnv);
    agent = builder.start();
    try (OutputStream in = agent.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.US_ASCII));
    }
    assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(agent.exitValue())
        .as(Files.readString(dir.resolve("agent.log")))
        .isEqualTo(AgentExit.SUCCEEDED);
    return app.sim().text();
  }

  @Test
  void tokenOnStdin_isUsed_andTheSimulatorNeverSeesIt() throws Exception {
    String output = runAgent(Map.of(), "token-1\n");

    assertThat(output).contains("ENV-START").contains("CASCADE_SIM_ID=s_test");
    assertThat(output).doesNotContain("token-1").doesNotContain(SimContract.SIM_TOKEN);
    assertThat(output).contains("stdin=[]");
  }

  @Test
  void tokenInTheEnvironmentToo_isKeptFromTheSimulator() throws Exception {
    String output = runAgent(Map.of(SimContract.SIM_TOKEN, "token-1"), "token-1\n");

    assertThat(output).contains("ENV-START").contains("CASCADE_SIM_ID=s_test");
    assertThat(output).doesNotContain("token-1").doesNotContain(SimContract.SIM_TOKEN);
  }

  /**
   * Runs the agent with an empty standard input and {@code token} (null for none) as {@code
   * CASCADE_SIM_TOKEN}; returns what it printed, once it exited with a usage error.
   */
  private String agentWithoutStdinToken(String token) throws Exception {
    app = FakeApp.start();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "-cp",
                    SimAgentMain.classPath(),
                    SimAgentMain.class.getName(),
                    "--",
                    "true"))
            .redirectErrorStream(true);
    builder.environment().remove(SimContract.SIM_TOKEN);
    if (token != null) {
      builder.environment().put(SimContract.SIM_TOKEN, token);
    }
    builder.environment().put(SimContract.MAIN_URL, app.url().toString());
    builder.environment().put(SimContract.SIM_ID, "s_test");
    agent = builder.start();
    agent.getOutputStream().close();
    String printed = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(agent.exitValue()).as(printed).isEqualTo(AgentExit.USAGE);
    return printed;
  }

  @Test
  void tokenInTheEnvironmentAlone_isNotRead_andSaysSo() throws Exception {
    String printed = agentWithoutStdinToken("token-1");

    assertThat(printed).contains("CASCADE_SIM_TOKEN in the environment is not read");
    assertThat(app.sim().heartbeats).isEmpty();
  }

  @Test
  void noTokenAnywhere_isAUsageErrorSayingWhereItComesFrom() throws Exception {
    assertThat(agentWithoutStdinToken(null))
        .contains("no token: the app writes it as the first line");
  }
}
