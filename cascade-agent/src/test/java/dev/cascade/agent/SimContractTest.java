package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SimContractTest {

  private static final SimContract CONTRACT =
      new SimContract(
          URI.create("http://127.0.0.1:8080"),
          "s_01",
          "secret",
          "r_01",
          2,
          "t_demo",
          Path.of("/data/s3/cascade/accelsim-traces/t_demo"),
          "SM90_H100",
          Path.of("/configs/SM90_H100"),
          Path.of("/data"),
          "cascade sim-agent --emulate");

  @Test
  void toEnvironment_writesEveryVariableOfTheContractButTheToken() {
    assertThat(CONTRACT.toEnvironment())
        .containsExactly(
            Map.entry("CASCADE_MAIN_URL", "http://127.0.0.1:8080"),
            Map.entry("CASCADE_SIM_ID", "s_01"),
            Map.entry("CASCADE_RUN_ID", "r_01"),
            Map.entry("CASCADE_REPLICA", "2"),
            Map.entry("CASCADE_TRACE_ID", "t_demo"),
            Map.entry("CASCADE_TRACE_DIR", "/data/s3/cascade/accelsim-traces/t_demo"),
            Map.entry("CASCADE_GPU_CONFIG", "SM90_H100"),
            Map.entry("CASCADE_GPU_CONFIG_DIR", "/configs/SM90_H100"),
            Map.entry("CASCADE_DATA_DIR", "/data"),
            Map.entry("CASCADE_SIM_CMD", "cascade sim-agent --emulate"));
  }

  @Test
  void fromEnvironment_readsBackWhatToEnvironmentWrote() {
    assertThat(CONTRACT.toEnvironment().values()).doesNotContain("secret");
    assertThat(SimContract.fromEnvironment(CONTRACT.toEnvironment(), "secret")).isEqualTo(CONTRACT);
  }

  @Test
  void tokenInput_isTheTokenOnALine() {
    assertThat(new String(CONTRACT.tokenInput(), java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("secret\n");
  }

  @Test
  void fromEnvironment_neverTakesTheTokenFromTheEnvironment_andSaysSo() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.put("CASCADE_SIM_TOKEN", "secret");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "sim s_01: no token: the app writes it as the first line of the sim's standard input;"
                + " CASCADE_SIM_TOKEN in the environment is not read, as every process of the same"
                + " user could read it there");
  }

  @Test
  void fromEnvironment_withNoTokenAnywhere_saysWhereItComesFrom() {
    assertThatThrownBy(() -> SimContract.fromEnvironment(CONTRACT.toEnvironment(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "sim s_01: no token: the app writes it as the first line of the sim's standard input");
  }

  @Test
  void fromEnvironment_readsAnEmptyConfigDirAsABuiltInConfig() {
    SimContract builtIn =
        new SimContract(
            CONTRACT.mainUrl(),
            CONTRACT.simId(),
            CONTRACT.simToken(),
            CONTRACT.runId(),
            0,
            CONTRACT.traceId(),
            CONTRACT.traceDir(),
            "SM90_H100",
            null,
            CONTRACT.dataDir(),
            CONTRACT.simCommand());

    assertThat(builtIn.toEnvironment()).containsEntry("CASCADE_GPU_CONFIG_DIR", "");
    assertThat(SimContract.fromEnvironment(builtIn.toEnvironment(), "secret")).isEqualTo(builtIn);
  }

  @Test
  void fromEnvironment_namesAMissingVariable() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.remove("CASCADE_TRACE_ID");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, "secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "CASCADE_TRACE_ID is not set; the app sets it for every sim it launches"
                + " (DESIGN.md section 7)");
  }

  @Test
  void fromEnvironment_takesABlankVariableForAMissingOne() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.put("CASCADE_RUN_ID", "  ");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, "secret"))
        .hasMessageStartingWith("CASCADE_RUN_ID is not set");
  }

  @Test
  void fromEnvironment_namesAMalformedReplicaAndItsValue() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.put("CASCADE_REPLICA", "two");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, "secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CASCADE_REPLICA must be a whole number, 0 or more; got 'two'");
  }

  @Test
  void fromEnvironment_rejectsANegativeReplica() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.put("CASCADE_REPLICA", "-1");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, "secret"))
        .hasMessage("CASCADE_REPLICA must be a whole number, 0 or more; got '-1'");
  }

  @Test
  void fromEnvironment_namesAMalformedUrlAndItsValue() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.put("CASCADE_MAIN_URL", "http://bad host");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, "secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("CASCADE_MAIN_URL is not a URL: 'http://bad host'");
  }

  @Test
  void fromEnvironment_namesAMalformedPathAndItsValue() {
    Map<String, String> env = new HashMap<>(CONTRACT.toEnvironment());
    env.put("CASCADE_TRACE_DIR", "/traces/a\0b");

    assertThatThrownBy(() -> SimContract.fromEnvironment(env, "secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("CASCADE_TRACE_DIR is not a path: '/traces/a\0b'");
  }

  @Test
  void reporting_needsOnlyTheAppTheSimAndItsToken() {
    SimContract.Reporting reporting =
        SimContract.Reporting.fromEnvironment(
            Map.of("CASCADE_MAIN_URL", " http://127.0.0.1:8080 ", "CASCADE_SIM_ID", "s_01"),
            " secret\n");

    assertThat(reporting)
        .isEqualTo(
            new SimContract.Reporting(URI.create("http://127.0.0.1:8080"), "s_01", "secret", null));
    assertThat(CONTRACT.reporting())
        .isEqualTo(
            new SimContract.Reporting(CONTRACT.mainUrl(), "s_01", "secret", Path.of("/data")));
  }

  @Test
  void reporting_namesTheFirstMissingVariable() {
    assertThatThrownBy(
            () ->
                SimContract.Reporting.fromEnvironment(Map.of("CASCADE_MAIN_URL", "http://x"), "t"))
        .hasMessageStartingWith("CASCADE_SIM_ID is not set");
  }
}
