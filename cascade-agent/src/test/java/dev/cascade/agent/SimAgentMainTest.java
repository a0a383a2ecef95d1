package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SimAgentMainTest {

  private static final Map<String, String> ENV =
      Map.of(
          "CASCADE_MAIN_URL", "http://127.0.0.1:1",
          "CASCADE_SIM_ID", "s_01",
          "CASCADE_DATA_DIR", "/data");

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Runs the agent with its token on stdin, as a launcher starts it. */
  private int run(Map<String, String> env, String... args) {
    return run(env, tokenIn(), args);
  }

  private int run(Map<String, String> env, java.io.InputStream stdin, String... args) {
    return SimAgentMain.run(
        List.of(args),
        env,
        stdin,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        SimAgentMain.Hooks.NONE);
  }

  private static SimAgent parse(List<String> args, Map<String, String> env) {
    return SimAgentMain.parse(args, env, tokenIn(), System.err);
  }

  private static java.io.InputStream tokenIn() {
    return new java.io.ByteArrayInputStream("secret\n".getBytes(StandardCharsets.US_ASCII));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void help_printsUsageAndExits0() {
    assertThat(run(ENV, "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("Usage: sim-agent")
        .contains("Exit codes");
  }

  @Test
  void noCommand_isAUsageError() {
    assertThat(run(ENV)).isEqualTo(AgentExit.USAGE);
    assertThat(err()).contains("no simulator: give '-- CMD [ARGS...]'").contains("Usage:");
  }

  @Test
  void unknownOption_isAUsageError() {
    assertThat(run(ENV, "--bogus", "--", "true")).isEqualTo(AgentExit.USAGE);
    assertThat(err()).contains("unknown option '--bogus'");
  }

  @Test
  void missingVariable_isAUsageErrorThatNamesIt() {
    assertThat(run(Map.of("CASCADE_MAIN_URL", "http://x"), "--", "true"))
        .isEqualTo(AgentExit.USAGE);
    assertThat(err()).contains("CASCADE_SIM_ID is not set");
  }

  @Test
  void badNumber_isAUsageError() {
    assertThat(run(ENV, "--chunk-bytes", "0", "--", "true")).isEqualTo(AgentExit.USAGE);
    assertThat(err()).contains("--chunk-bytes must be a whole number from 1 to 8388608; got '0'");
  }

  @Test
  void badUrl_isAUsageError() {
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("CASCADE_MAIN_URL", "ftp://example");
    assertThat(run(env, "--", "true")).isEqualTo(AgentExit.USAGE);
    assertThat(err()).contains("CASCADE_MAIN_URL must be an http(s) URL");
  }

  @Test
  void emulatorOptions_areCheckedBeforeAnythingRuns() {
    assertThat(run(ENV, "--emulate", "--config", "SM90_H100")).isEqualTo(AgentExit.USAGE);
    assertThat(err()).contains("no trace");
  }

  @Test
  void cascadeEmulate_isRecognisedWhateverTheCascadePath() {
    assertThat(SimAgentMain.isCascadeEmulate(List.of("cascade", "emulate"))).isTrue();
    assertThat(SimAgentMain.isCascadeEmulate(List.of("/opt/cascade/cascade", "emulate", "--x")))
        .isTrue();
    assertThat(SimAgentMain.isCascadeEmulate(List.of("cascade", "stats"))).isFalse();
    assertThat(SimAgentMain.isCascadeEmulate(List.of("accel-sim.out", "emulate"))).isFalse();
  }

  @Test
  void commandVariables_areExpandedFromTheEnvironmentWhenSet() {
    Map<String, String> env =
        Map.of("CASCADE_TRACE_DIR", "/t/demo", "CASCADE_GPU_CONFIG_DIR", "/c");

    assertThat(SimAgentMain.expand("$CASCADE_TRACE_DIR/traces/kernelslist.g", env))
        .isEqualTo("/t/demo/traces/kernelslist.g");
    assertThat(SimAgentMain.expand("${CASCADE_GPU_CONFIG_DIR}/gpgpusim.config", env))
        .isEqualTo("/c/gpgpusim.config");
    assertThat(SimAgentMain.expand("$UNSET/x ${UNSET} $ $1 ${CASCADE_TRACE_DIR", env))
        .isEqualTo("$UNSET/x ${UNSET} $ $1 ${CASCADE_TRACE_DIR");
    assertThat(SimAgentMain.expand("cost: 5$", env)).isEqualTo("cost: 5$");
  }

  @Test
  void spool_defaultsToTheDataDirsSimsFolder() {
    SimAgent agent = parse(List.of("--", "true"), ENV);

    assertThat(agent.settings().spool())
        .isEqualTo(java.nio.file.Path.of("/data/work/sims/s_01.spool"));
    assertThat(agent.settings().heartbeatInterval()).isEqualTo(java.time.Duration.ofSeconds(2));
    assertThatThrownBy(() -> parse(List.of("--"), ENV))
        .hasMessageContaining("no simulator command after '--'");
  }

  @Test
  void appPatience_isHowLongTheAgentRetries_evenAgainstRefusedConnections() {
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("CASCADE_APP_PATIENCE_S", "600");

    AgentSettings told = parse(List.of("--", "true"), env).settings();
    AgentSettings explicit = parse(List.of("--gone-seconds", "5", "--", "true"), env).settings();

    // A restart of the app shorter than its own patience loses no sim: not 120 s of refused
    // connections, as long as the app waits (10 times its heartbeat timeout).
    assertThat(told.goneAfter()).isEqualTo(java.time.Duration.ofSeconds(600));
    assertThat(told.giveUpAfter()).isEqualTo(java.time.Duration.ofSeconds(600));
    assertThat(explicit.goneAfter()).isEqualTo(java.time.Duration.ofSeconds(5));
    env.put("CASCADE_APP_PATIENCE_S", "soon");
    assertThatThrownBy(() -> parse(List.of("--", "true"), env))
        .hasMessage(
            "CASCADE_APP_PATIENCE_S must be a whole number of seconds, 1 or more; got 'soon'");
  }

  @Test
  void token_isReadFromTheFirstLineOfStdin_andNeverFromTheEnvironment() {
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("CASCADE_SIM_TOKEN", "from-the-environment");
    java.io.InputStream stdin =
        new java.io.ByteArrayInputStream(
            "piped-token\nnot read\n".getBytes(StandardCharsets.UTF_8));

    SimAgent agent = SimAgentMain.parse(List.of("--", "true"), env, stdin, System.err);

    assertThat(agent.settings().token()).isEqualTo("piped-token");
    assertThat(run(env, java.io.InputStream.nullInputStream(), "--", "true"))
        .isEqualTo(AgentExit.USAGE);
    assertThat(err())
        .contains("sim s_01: no token: the app writes it as the first line")
        .contains("CASCADE_SIM_TOKEN in the environment is not read");
  }

  @Test
  void withoutTheAppsAddress_stdinIsNotRead_andTheMissingVariableIsNamed() {
    // Someone trying the command by hand: a terminal's stdin would block until they typed a line.
    java.io.InputStream neverRead =
        new java.io.InputStream() {
          @Override
          public int read() {
            throw new AssertionError("stdin was read without CASCADE_MAIN_URL and CASCADE_SIM_ID");
          }
        };

    assertThatThrownBy(
            () -> SimAgentMain.parse(List.of("--", "true"), Map.of(), neverRead, System.err))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CASCADE_MAIN_URL");
  }
}
