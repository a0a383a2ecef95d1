package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class ConfigsCommandTest {

  private static final Path TESTED_CFGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/tested-cfgs");

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @Test
  void json_showsRealConfigsWithArchClockAndSms() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(TESTED_CFGS),
        "needs the fixture "
            + TESTED_CFGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit = run("configs", "--json", "--configs", TESTED_CFGS.toString());

    assertThat(exit).isZero();
    JsonNode configs = new ObjectMapper().readTree(out.toString()).get("configs");
    JsonNode h100 = find(configs, "SM90_H100");
    assertThat(h100.get("arch").asText()).isEqualTo("sm_90");
    assertThat(h100.get("clock_mhz").asDouble()).isEqualTo(1980.0);
    assertThat(h100.get("sms").asInt()).isEqualTo(132);
    assertThat(h100.get("usable").asBoolean()).isTrue();
    JsonNode qv100 = find(configs, "SM7_QV100");
    assertThat(qv100.get("arch").asText()).isEqualTo("sm_70");
    assertThat(qv100.get("clock_mhz").asDouble()).isEqualTo(1132.0);
    assertThat(find(configs, "SM6_TITANX").get("warnings").get(0).asText()).contains("6.1");
  }

  @Test
  void table_listsUnusableConfigsWithTheirReason(@TempDir Path folder) throws IOException {
    Files.createDirectories(folder.resolve("SM90_BROKEN"));
    Path good = Files.createDirectories(folder.resolve("SM80_GOOD"));
    Files.writeString(
        good.resolve("gpgpusim.config"),
        "-gpgpu_n_clusters 108\n-gpgpu_clock_domains 1410:1:1:1\n");
    Files.writeString(good.resolve("trace.config"), "");

    int exit = run("configs", "--configs", folder.toString());

    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains("GPU configs from " + folder.toAbsolutePath().normalize() + ": 2")
        .containsPattern("SM80_GOOD\\s+sm_80\\s+1410.0\\s+108\\s+yes")
        .containsPattern("SM90_BROKEN\\s+-\\s+-\\s+-\\s+no\\s+no gpgpusim.config");
  }

  @Test
  void missingFolder_failsWithOneLineNamingIt(@TempDir Path folder) {
    Path missing = folder.resolve("absent");

    int exit = run("configs", "--configs", missing.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .startsWith("cascade: ")
        .contains(missing.toString())
        .doesNotContain("\tat ");
  }

  @Test
  void unknownOption_isAUsageError() {
    assertThat(run("configs", "--bogus")).isEqualTo(2);
    assertThat(err.toString()).contains("--bogus");
  }

  private static JsonNode find(JsonNode configs, String name) {
    for (JsonNode config : configs) {
      if (config.get("name").asText().equals(name)) {
        return config;
      }
    }
    throw new AssertionError("no config named " + name + " in " + configs);
  }
}
