package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.agent.SimContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default sim command's JVM starts the agent with its lean class path alone. */
final class SimCommandsIT {

  @TempDir Path dataDir;

  @Test
  void agent_loadsTheAgentMainClassWithOnlyItsOwnClassPath() throws Exception {
    Files.createDirectories(dataDir.resolve("work"));
    List<String> command = new ArrayList<>(SimCommands.agent(dataDir));
    command.add("--help");

    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dataDir.resolve("agent.out").toFile())
            .start();
    try {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(output()).isEqualTo(SimAgentMain.USAGE);
      assertThat(process.exitValue()).isZero();
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void agent_makesItselfUndumpableBeforeItReadsItsToken_withoutAWarningFromTheJvm()
      throws Exception {
    Files.createDirectories(dataDir.resolve("work"));
    List<String> command = new ArrayList<>(SimCommands.agent(dataDir));
    command.addAll(List.of("--", "true"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dataDir.resolve("agent.out").toFile());
    builder.environment().put(SimContract.MAIN_URL, "http://127.0.0.1:1");
    builder.environment().put(SimContract.SIM_ID, "s_01");
    builder.environment().remove(SimContract.SIM_TOKEN);
    Process process = builder.start();
    process.getOutputStream().close(); // no token on stdin: it stops there, once undumpable

    try {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      // The JVM warns of the prctl call in the sim's log unless native access is allowed.
      assertThat(output())
          .contains("cascade sim-agent: sim s_01: no token")
          .doesNotContain("WARNING");
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void agent_classPathIsTheAgentModuleAndItsDependenciesOnly() {
    List<String> command = SimCommands.agent(dataDir);
    String classPath = command.get(command.indexOf("-cp") + 1);

    assertThat(classPath.split(java.io.File.pathSeparator))
        .hasSize(4)
        .noneMatch(entry -> entry.contains("jackson") || entry.contains("javalin"))
        .anyMatch(entry -> entry.contains("cascade-agent"))
        .anyMatch(entry -> entry.contains("cascade-accelsim"))
        .anyMatch(entry -> entry.contains("xz"))
        .anyMatch(entry -> entry.contains("zstd-jni")); // Accel-Sim 2.0's .tracez
  }

  private String output() throws IOException {
    return Files.readString(dataDir.resolve("agent.out"), StandardCharsets.UTF_8);
  }
}
