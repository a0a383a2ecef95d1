package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.stats.LogSummary;
import dev.cascade.agent.emulator.TestTraces;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sim agent as a real child JVM with only its lean class path (cascade-agent, cascade-accelsim,
 * xz; no Jackson, SLF4J or Javalin), as the default sim command runs it.
 */
final class SimAgentProcessIT {

  @TempDir Path dir;

  private FakeApp app;
  private Process agent;

  @AfterEach
  void stop() {
    if (agent != null) {
      agent.destroyForcibly();
    }
    if (app != null) {
      app.close();
    }
  }

  private Process startAgent(Map<String, String> env, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(SimAgentMain.classPath());
    command.add(SimAgentMain.class.getName());
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("agent.out").toFile());
    builder.environment().putAll(env);
    Process started = builder.start();
    try (java.io.OutputStream in = started.getOutputStream()) {
      app.tokenIn().transferTo(in);
    }
    return started;
  }

  private String agentOutput() throws IOException {
    Path out = dir.resolve("agent.out");
    return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
  }

  @Test
  void sigterm_stopsTheSimulatorsGroupReportsCancelledAndExits3() throws Exception {
    app = FakeApp.start();
    Path pidFile = dir.resolve("grandchild.pid");
    Path script = dir.resolve("simulator.sh");
    Files.writeString(script, "sleep 600 &\necho $! > '" + pidFile + "'\necho started\nwait\n");
    agent =
        startAgent(
            app.environment(),
            List.of(
                "--spool",
                dir.resolve("spool").toString(),
                "--heartbeat-millis",
                "100",
                "--chunk-millis",
                "100",
                "--kill-grace-millis",
                "1000",
                "--",
                "sh",
                script.toString()));

    await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pidFile));
    await().atMost(Duration.ofSeconds(30)).until(() -> app.sim().text().contains("started"));
    long grandchild = Long.parseLong(Files.readString(pidFile).strip());
    agent.destroy(); // SIGTERM

    assertThat(agent.waitFor(20, TimeUnit.SECONDS)).as(this::agentOutputQuietly).isTrue();
    assertThat(agent.exitValue()).as(this::agentOutputQuietly).isEqualTo(AgentExit.CANCELLED);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> ProcessHandle.of(grandchild).map(p -> !p.isAlive()).orElse(true));
    assertThat(app.sim().accepted())
        .hasValueSatisfying(
            h ->
                assertThat(h).containsEntry("state", "failed").containsEntry("error", "cancelled"));
    assertThat(agentOutput()).contains("got SIGTERM");
  }

  @Test
  void leanJvm_runsTheEmulatorInProcessToTheEnd() throws Exception {
    app = FakeApp.start();
    Path trace =
        TestTraces.write(
            dir.resolve("trace"),
            List.of(TestTraces.kernel("_Z1av", 32), TestTraces.kernel("_Z1bv", 8)));
    Map<String, String> env = new java.util.HashMap<>(app.environment());
    env.put("CASCADE_TRACE_DIR", trace.toString());
    env.put("CASCADE_GPU_CONFIG", "SM90_H100");
    env.put("CASCADE_DATA_DIR", dir.resolve("data").toString());
    long started = System.nanoTime();
    agent = startAgent(env, List.of("--emulate", "--speed", "0"));

    assertThat(agent.waitFor(60, TimeUnit.SECONDS)).as(this::agentOutputQuietly).isTrue();
    assertThat(agent.exitValue()).as(this::agentOutputQuietly).isEqualTo(AgentExit.SUCCEEDED);
    LogSummary summary = LogSummary.parse(app.sim().text());
    assertThat(summary.complete()).isTrue();
    assertThat(summary.kernels()).hasSize(2);
    assertThat(dir.resolve("data/work/sims/s_test.spool")).doesNotExist();
    System.out.printf(
        "sim agent: JVM start to first heartbeat %d ms (lean class path, no CDS archive)%n",
        TimeUnit.NANOSECONDS.toMillis(app.sim().firstHeartbeatNanos - started));
  }

  private String agentOutputQuietly() {
    try {
      return agentOutput();
    } catch (IOException e) {
      return e.toString();
    }
  }
}
