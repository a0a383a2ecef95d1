package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.stats.LogSummary;
import dev.cascade.agent.emulator.TestTraces;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sim agent against a fake app and scripted fake simulators. */
final class SimAgentIT {

  @TempDir Path dir;

  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
  private final List<AutoCloseable> closeAfter = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable closeable : closeAfter) {
      closeable.close();
    }
  }

  private FakeApp app() throws IOException {
    FakeApp app = FakeApp.start();
    closeAfter.add(app);
    return app;
  }

  private Path spool() {
    return dir.resolve("spool");
  }

  /** Quick settings, so the tests take fractions of a second. */
  private AgentSettings settings(URI url) {
    AgentSettings.Builder quick = AgentSettings.builder(url, "s_test", "token-1", spool());
    quick.chunkAge = Duration.ofMillis(100);
    quick.heartbeatInterval = Duration.ofMillis(100);
    quick.backoffInitial = Duration.ofMillis(20);
    quick.backoffMax = Duration.ofMillis(200);
    quick.killGrace = Duration.ofSeconds(1);
    return quick.build();
  }

  private List<String> script(String body) throws IOException {
    Path script = dir.resolve("simulator-" + System.nanoTime() + ".sh");
    Files.writeString(script, body);
    return List.of("sh", script.toString());
  }

  private CompletableFuture<Integer> start(SimAgent agent) {
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              try {
                exit.complete(agent.run());
              } catch (Throwable e) {
                exit.completeExceptionally(e);
              }
            });
    return exit;
  }

  private int exitOf(CompletableFuture<Integer> exit) throws Exception {
    return exit.get(60, TimeUnit.SECONDS);
  }

  private String log() {
    return logBytes.toString(StandardCharsets.UTF_8);
  }

  private long spooledChunks() throws IOException {
    if (!Files.isDirectory(spool())) {
      return 0;
    }
    try (Stream<Path> files = Files.list(spool())) {
      return files.filter(f -> f.getFileName().toString().endsWith(".chunk")).count();
    }
  }

  private static String lines(int count) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < count; i++) {
      out.append(String.format("line %05d the quick brown fox jumps over the lazy dog%n", i));
    }
    return out.toString();
  }

  private static String awkLines(int count) {
    return "awk 'BEGIN { for (i = 0; i < "
        + count
        + "; i++) printf \"line %05d the quick brown fox jumps over the lazy dog\\n\", i }'\n";
  }

  @Test
  void bigOutput_goesInOrderedChunksCutAtLineEnds() throws Exception {
    FakeApp app = app();
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url())
                .with(
                    s -> {
                      s.chunkBytes = 16 * 1024;
                      s.chunkAge = Duration.ofSeconds(1);
                    }),
            script(awkLines(4000)),
            log);

    int exit = agent.run();

    FakeApp.SimRecord sim = app.sim();
    assertThat(exit).as(log()).isEqualTo(AgentExit.SUCCEEDED);
    assertThat(sim.text()).isEqualTo(lines(4000));
    assertThat(sim.chunks).hasSizeGreaterThanOrEqualTo(4000 * 55 / (16 * 1024) + 1);
    assertThat(sim.chunks.values())
        .allSatisfy(
            chunk -> {
              assertThat(chunk.length).isLessThanOrEqualTo(16 * 1024);
              assertThat(chunk[chunk.length - 1]).isEqualTo((byte) '\n');
            });
    assertThat(sim.arrivals).isSorted().doesNotHaveDuplicates();
    assertThat(sim.accepted())
        .hasValueSatisfying(
            h -> {
              assertThat(h).containsEntry("state", "succeeded").containsEntry("exit_code", 0L);
              assertThat(h).containsEntry("chunks", (long) sim.chunks.size());
            });
    assertThat(spool()).doesNotExist();
  }

  @Test
  void slowOutput_isSentAsItComes() throws Exception {
    FakeApp app = app();
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url()),
            script("for i in 1 2 3 4 5 6 7 8; do echo tick $i; sleep 0.3; done\n"),
            log);

    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(10)).until(() -> app.sim().text().contains("tick 2\n"));
    assertThat(exit).isNotDone();

    assertThat(exitOf(exit)).isEqualTo(AgentExit.SUCCEEDED);
    assertThat(app.sim().text())
        .isEqualTo("tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\ntick 7\ntick 8\n");
    assertThat(app.sim().chunks).hasSizeGreaterThanOrEqualTo(3);
    assertThat(app.sim().runningHeartbeats()).isGreaterThanOrEqualTo(3);
    assertThat(app.sim().heartbeats.getFirst()).containsEntry("state", "running");
  }

  @Test
  void appDownAtStart_outputIsSpooledAndDeliveredOnceItIsUp() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    FakeApp app = FakeApp.notStarted();
    closeAfter.add(app);
    SimAgent agent =
        SimAgent.forCommand(
            settings(URI.create("http://127.0.0.1:" + port)), script(awkLines(300)), log);

    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(10)).until(() -> spooledChunks() > 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> log().contains("cannot reach the app"));
    long appStarted = System.currentTimeMillis();
    app.startOn(port);

    assertThat(exitOf(exit)).as(log()).isEqualTo(AgentExit.SUCCEEDED);
    assertThat(app.sim().text()).isEqualTo(lines(300));
    assertThat(app.sim().accepted()).isPresent();
    assertThat(log()).contains("reached the app at");
    // Every chunk went out late, but says when its bytes were read: before the app was there.
    assertThat(app.sim().readAt).hasSameSizeAs(app.sim().chunks);
    assertThat(app.sim().readAt.values())
        .allSatisfy(stamp -> assertThat(Long.parseLong(stamp)).isLessThan(appStarted));
  }

  @Test
  void appRestartInTheMiddle_losesNothing() throws Exception {
    FakeApp app = app();
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url()),
            script("i=0; while [ $i -lt 40 ]; do echo \"step $i\"; i=$((i+1)); sleep 0.05; done\n"),
            log);

    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(10)).until(() -> app.sim().arrivals.size() >= 2);
    int port = app.port();
    app.stop();
    int arrivedBefore = app.sim().arrivals.size();
    await().atMost(Duration.ofSeconds(10)).until(() -> spooledChunks() > arrivedBefore + 1);
    app.startOn(port);

    assertThat(exitOf(exit)).as(log()).isEqualTo(AgentExit.SUCCEEDED);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      expected.append("step ").append(i).append('\n');
    }
    assertThat(app.sim().text()).isEqualTo(expected.toString());
    assertThat(app.sim().arrivals).isSorted();
    assertThat(log()).contains("lost the app at").contains("reached the app at");
  }

  @Test
  void appAnswering503_isRetriedUntilItRecovers() throws Exception {
    FakeApp app = app();
    app.unavailable(true);
    SimAgent agent = SimAgent.forCommand(settings(app.url()), script(awkLines(100)), log);

    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(10)).until(() -> log().contains("HTTP 503"));
    app.unavailable(false);

    assertThat(exitOf(exit)).as(log()).isEqualTo(AgentExit.SUCCEEDED);
    assertThat(app.sim().text()).isEqualTo(lines(100));
  }

  @Test
  void missingChunksInTheFinalReply_areSentAgain() throws Exception {
    FakeApp app = app();
    app.sim().loseOnce.add(1L);
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url())
                .with(
                    s -> {
                      s.chunkBytes = 4096;
                      s.chunkAge = Duration.ofSeconds(1);
                    }),
            script(awkLines(300)),
            log);

    int exit = agent.run();

    assertThat(exit).as(log()).isEqualTo(AgentExit.SUCCEEDED);
    assertThat(app.sim().replies).anySatisfy(reply -> assertThat(reply).contains("[1]"));
    assertThat(app.sim().arrivals).filteredOn(seq -> seq == 1L).hasSize(2);
    assertThat(app.sim().text()).isEqualTo(lines(300));
    assertThat(app.sim().accepted()).isPresent();
    assertThat(log()).contains("the app misses chunks [1]; sending them again");
  }

  @Test
  void cancel_killsTheSimulatorsWholeGroupAndExits3() throws Exception {
    FakeApp app = app();
    Path pidFile = dir.resolve("grandchild.pid");
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url()),
            script("sleep 600 &\necho $! > '" + pidFile + "'\necho started\nwait\n"),
            log);

    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pidFile));
    await().atMost(Duration.ofSeconds(10)).until(() -> app.sim().text().contains("started"));
    long grandchild = Long.parseLong(Files.readString(pidFile).strip());
    assertThat(ProcessHandle.of(grandchild)).isPresent();
    app.sim().cancel = true;

    assertThat(exitOf(exit)).as(log()).isEqualTo(AgentExit.CANCELLED);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> ProcessHandle.of(grandchild).map(p -> !p.isAlive()).orElse(true));
    assertThat(app.sim().heartbeats)
        .anySatisfy(
            h ->
                assertThat(h).containsEntry("state", "failed").containsEntry("error", "cancelled"));
    assertThat(log()).contains("the app cancelled the sim");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ERROR ** deadlock detected                                   | 0   | failed    |"
            + " ERROR ** deadlock detected         | 1",
        "GPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 0 @ gpu_sim_cycle 5 | 1 |"
            + " failed | GPGPU-Sim uArch: ERROR ** deadlock detected | 1",
        "unsupported binary version: 90                               | 0   | failed    |"
            + " unsupported binary version: 90     | 1",
        "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) ** | 0 |"
            + " succeeded | | 0",
        "GPGPU-Sim: *** exit detected ***                             | 0   | succeeded |  | 0",
        "Segmentation fault                                           | 139 | failed    |"
            + " the simulator exited with code 139 (killed by SIGSEGV) | 1",
        "all went wrong                                               | 3   | failed    |"
            + " the simulator exited with code 3   | 1",
        "accel-sim.out: symbol lookup error: accel-sim.out: undefined symbol: _Z4initv | 127 |"
            + " failed | the simulator exited with code 127: accel-sim.out: symbol lookup error:"
            + " accel-sim.out: undefined symbol: _Z4initv | 1",
        "accel-sim.out: error while loading shared libraries: libcudart.so.11.0: cannot open"
            + " shared object file: No such file or directory | 127 | failed | the simulator"
            + " exited with code 127: accel-sim.out: error while loading shared libraries:"
            + " libcudart.so.11.0: cannot open shared object file | 1",
      })
  void simulatorOutcome_decidesTheFinalState(
      String line, int code, String state, String error, int agentExit) throws Exception {
    FakeApp app = app();
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url()),
            script("echo 'some output'\ncat <<'EOF'\n" + line + "\nEOF\nexit " + code + "\n"),
            log);

    int exit = agent.run();

    assertThat(exit).as(log()).isEqualTo(agentExit);
    Map<String, Object> accepted = app.sim().accepted().orElseThrow();
    assertThat(accepted).containsEntry("state", state).containsEntry("exit_code", (long) code);
    if (error == null) {
      assertThat(accepted).doesNotContainKey("error");
    } else {
      assertThat((String) accepted.get("error")).startsWith(error);
    }
    assertThat(app.sim().text()).isEqualTo("some output\n" + line + "\n");
  }

  @Test
  void heartbeats_carryTheSimulatorTreesPeakMemory() throws Exception {
    Assumptions.assumeTrue(
        Files.isDirectory(Path.of("/proc/self")), "the simulator's memory is read from /proc");
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/python3")),
        "the memory-hungry simulator is python3: apt-get install python3");
    FakeApp app = app();
    // A child of the simulator holds 120 MiB for a second: the tree's peak counts it.
    SimAgent agent =
        SimAgent.forCommand(
            settings(app.url()),
            script(
                "python3 -c 'import time; b = bytearray(120 << 20); b[::4096] = b\"\\x01\" *"
                    + " len(b[::4096]); time.sleep(1)'\necho done\n"),
            log);

    assertThat(agent.run()).as(log()).isZero();

    Map<String, Object> accepted = app.sim().accepted().orElseThrow();
    assertThat((Long) accepted.get("peak_memory_bytes"))
        .isBetween(120L << 20, 400L << 20); // the bytes, python itself and the shell
    assertThat(app.sim().heartbeats)
        .filteredOn(heartbeat -> "running".equals(heartbeat.get("state")))
        .anySatisfy(heartbeat -> assertThat(heartbeat).containsKey("peak_memory_bytes"));
  }

  @Test
  void missingSimulator_failsWithItsExitCodeAndTheReasonInTheLog() throws Exception {
    FakeApp app = app();
    SimAgent agent =
        SimAgent.forCommand(settings(app.url()), List.of("/nonexistent/simulator"), log);

    int exit = agent.run();

    assertThat(exit).as(log()).isEqualTo(AgentExit.FAILED);
    Map<String, Object> accepted = app.sim().accepted().orElseThrow();
    assertThat(accepted).containsEntry("state", "failed");
    assertThat((Long) accepted.get("exit_code")).isNotZero();
    assertThat(app.sim().text()).contains("/nonexistent/simulator");
  }

  @Test
  void wrongToken_stopsTheSimulatorAndExits5() throws Exception {
    FakeApp app = app();
    SimAgent agent =
        SimAgent.forCommand(
            AgentSettings.of(app.url(), "s_test", "not-the-token", spool())
                .with(
                    s -> {
                      s.heartbeatInterval = Duration.ofMillis(100);
                      s.killGrace = Duration.ofSeconds(1);
                      s.finalReportTimeout = Duration.ofSeconds(1);
                    }),
            script("echo hello\nsleep 600\n"),
            log);

    int exit = exitOf(start(agent));

    assertThat(exit).as(log()).isEqualTo(AgentExit.REJECTED);
    assertThat(log()).contains("the app refused the sim").contains("HTTP 403");
    assertThat(spool()).isDirectory();
  }

  @Test
  void sigtermAfterTheSimulatorFinished_withTheAppDown_exitsWithinTheStopBound() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    // Long waits between retries, as after a while without the app: a SIGTERM must cut them short.
    SimAgent agent =
        SimAgent.forCommand(
            settings(URI.create("http://127.0.0.1:" + port))
                .with(
                    s -> {
                      s.backoffInitial = Duration.ofSeconds(20);
                      s.backoffMax = Duration.ofSeconds(20);
                      s.giveUpAfter = Duration.ofMinutes(10);
                    }),
            script("echo hello\n"),
            log);
    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(30)).until(() -> log().contains("the simulator exited"));

    agent.stop();

    assertThat(exit.get(agent.stopTimeout().toMillis(), TimeUnit.MILLISECONDS))
        .as(log())
        .isEqualTo(AgentExit.CANCELLED);
    assertThat(spooledChunks()).isPositive();
  }

  @Test
  void appNeverAnswering_givesUpAndKeepsTheSpool() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    SimAgent agent =
        SimAgent.forCommand(
            settings(URI.create("http://127.0.0.1:" + port))
                .with(s -> s.giveUpAfter = Duration.ofMillis(800)),
            script("echo hello\nsleep 600\n"),
            log);

    int exit = exitOf(start(agent));

    assertThat(exit).as(log()).isEqualTo(AgentExit.GAVE_UP);
    assertThat(spooledChunks()).isPositive();
    assertThat(log()).contains("has not answered for").contains("giving up");
  }

  @Test
  void appGone_givesUpAfterTheGoneTime_notTheWholeGiveUpTime() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    SimAgent agent =
        SimAgent.forCommand(
            settings(URI.create("http://127.0.0.1:" + port))
                .with(s -> s.goneAfter = Duration.ofMillis(800)),
            script("echo hello\nsleep 600\n"),
            log);

    int exit = exitOf(start(agent));

    assertThat(exit).as(log()).isEqualTo(AgentExit.GAVE_UP);
    assertThat(log()).contains("nothing has listened at").contains("the app is gone");
    assertThat(spooledChunks()).isPositive();
  }

  @Test
  void appListeningButSilent_isNotGone_andGetsTheWholeGiveUpTime() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      SimAgent agent =
          SimAgent.forCommand(
              settings(URI.create("http://127.0.0.1:" + silent.getLocalPort()))
                  .with(
                      s -> {
                        s.goneAfter = Duration.ofMillis(300);
                        s.giveUpAfter = Duration.ofMillis(1500);
                        s.requestTimeout = Duration.ofMillis(200);
                      }),
              script("echo hello\nsleep 600\n"),
              log);

      int exit = exitOf(start(agent));

      assertThat(exit).as(log()).isEqualTo(AgentExit.GAVE_UP);
      assertThat(log()).contains("has not answered for").doesNotContain("the app is gone");
    }
  }

  private Map<String, String> emulatorEnvironment(FakeApp app, Path trace) {
    Map<String, String> env = new HashMap<>(app.environment());
    env.put("CASCADE_TRACE_DIR", trace.toString());
    env.put("CASCADE_GPU_CONFIG", "SM90_H100");
    env.put("CASCADE_GPU_CONFIG_DIR", "");
    env.put("CASCADE_REPLICA", "1");
    return env;
  }

  @Test
  void cascadeEmulateCommand_runsTheEmulatorInTheAgentsJvm() throws Exception {
    FakeApp app = app();
    Path trace =
        TestTraces.write(
            dir.resolve("trace"),
            List.of(TestTraces.kernel("_Z1av", 16), TestTraces.kernel("_Z1bv", 4)));
    SimAgent agent =
        SimAgentMain.parse(
            List.of(
                "--spool",
                spool().toString(),
                "--chunk-millis",
                "100",
                "--heartbeat-millis",
                "100",
                "--",
                "cascade",
                "emulate",
                "--speed",
                "0"),
            emulatorEnvironment(app, trace),
            app.tokenIn(),
            log);

    int exit = agent.run();

    assertThat(exit).as(log()).isEqualTo(AgentExit.SUCCEEDED);
    assertThat(log()).contains("cascade emulate (in process)");
    LogSummary summary = LogSummary.parse(app.sim().text());
    assertThat(summary.complete()).isTrue();
    assertThat(summary.kernels()).hasSize(2);
    assertThat(app.sim().text()).contains("replica 1,");
  }

  @Test
  void emulatorFailure_isReportedAsTheRealOneWouldBe() throws Exception {
    FakeApp app = app();
    Path trace = TestTraces.write(dir.resolve("trace"), List.of(TestTraces.kernel("_Z1av", 4)));
    SimAgent agent =
        SimAgentMain.parse(
            List.of(
                "--spool",
                spool().toString(),
                "--emulate",
                "--speed",
                "0",
                "--fail-at-kernel",
                "1",
                "--failure",
                "unsupported-binary"),
            emulatorEnvironment(app, trace),
            app.tokenIn(),
            log);

    int exit = agent.run();

    assertThat(exit).as(log()).isEqualTo(AgentExit.FAILED);
    assertThat(app.sim().accepted().orElseThrow())
        .containsEntry("state", "failed")
        .containsEntry("error", "unsupported binary version: 90")
        .containsEntry("exit_code", 0L);
  }

  @Test
  void cancel_stopsTheInProcessEmulator() throws Exception {
    FakeApp app = app();
    Path trace = TestTraces.write(dir.resolve("trace"), List.of(TestTraces.kernel("_Z1av", 4)));
    SimAgent agent =
        SimAgentMain.parse(
            List.of(
                "--spool",
                spool().toString(),
                "--heartbeat-millis",
                "100",
                "--emulate",
                "--speed",
                "1"),
            emulatorEnvironment(app, trace),
            app.tokenIn(),
            log);

    CompletableFuture<Integer> exit = start(agent);
    await().atMost(Duration.ofSeconds(10)).until(() -> app.sim().runningHeartbeats() > 0);
    app.sim().cancel = true;

    assertThat(exit.get(15, TimeUnit.SECONDS)).as(log()).isEqualTo(AgentExit.CANCELLED);
  }
}
