package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two sims of one OS user, as without {@code --sim-user}: a victim, and a hostile simulator ({@link
 * MemoryThief}) that reads the victim's agent's memory through {@code /proc/<pid>/mem} for its
 * token. The agent makes itself undumpable, so it finds the agent's memory closed and no token; the
 * same scan of the victim's simulator, which is not undumpable, finds what that one holds, which
 * shows the scan works.
 *
 * <p>Root may read every process's memory, so the agents and their simulators run as {@code nobody}
 * ({@code setpriv}), from a copy of the agent's class path that user can read.
 */
final class HostileSiblingIT {

  private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
  private static final String NOBODY = "65534";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private FakeApp app;
  private final List<Process> agents = new ArrayList<>();

  @BeforeEach
  void needsRootAndSetpriv() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(Path.of("/proc/self")), "reading other processes' memory needs /proc");
    Assumptions.assumeTrue(
        ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue() == 0,
        "root reads every process's memory, undumpable or not: the sims must run as another"
            + " user, which needs the tests to run as root");
    Assumptions.assumeTrue(
        Files.isExecutable(SETPRIV),
        "the sims run as nobody through setpriv: install util-linux (apt-get install util-linux)");
  }

  @AfterEach
  void stopAll() throws Exception {
    Files.deleteIfExists(dir.resolve("reports/release"));
    Files.createDirectories(dir.resolve("reports"));
    Files.writeString(dir.resolve("reports/release"), "");
    for (Process agent : agents) {
      List<ProcessHandle> below = agent.descendants().toList();
      agent.destroy();
      if (!agent.waitFor(20, TimeUnit.SECONDS)) {
        agent.destroyForcibly().waitFor();
      }
      below.forEach(ProcessHandle::destroyForcibly);
    }
    if (app != null) {
      app.close();
    }
  }

  @Test
  void aHostileSim_cannotReadItsSiblingAgentsMemory_andFindsNoToken() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    String classPath = readableCopyOfTheAgentsClassPath();
    Path thiefClasses = readableCopyOfTheThief();
    Path reports = openFolder("reports");
    Path spools = openFolder("spools");
    String victimToken = "victim-" + random();
    String canary = "canary-" + random();
    app = FakeApp.start();
    app.addSim("s_victim", victimToken);
    app.addSim("s_thief", "thief-" + random());

    // The victim's simulator holds a Bearer string of its own, and waits to be released.
    Process victim =
        startAgent(
            classPath,
            "s_victim",
            victimToken,
            spools,
            List.of(
                "sh",
                "-c",
                "held='Bearer " + canary + "'; while [ ! -e \"$1\" ]; do sleep 0.1; done",
                "victim",
                reports.resolve("release").toString()));
    await().atMost(WAIT).until(() -> app.sim("s_victim").runningHeartbeats() > 0);

    Process thief =
        startAgent(
            classPath,
            "s_thief",
            app.sim("s_thief").token,
            spools,
            List.of(
                javaProgram().toString(),
                "-Xmx64m",
                "-XX:+UseSerialGC",
                "-cp",
                thiefClasses.toString(),
                MemoryThief.class.getName(),
                dir.toString(),
                reports.resolve("report").toString()));
    assertThat(thief.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    List<String> report = Files.readAllLines(reports.resolve("report"));

    assertThat(report)
        .as("what the hostile sim got")
        .contains("agent " + victim.pid())
        .anyMatch(line -> line.startsWith("agent maps unreadable: "))
        .noneMatch(line -> line.startsWith("agent found "))
        .contains("simulator found " + canary)
        .noneMatch(line -> line.contains(victimToken));
    assertThat(thief.exitValue()).isEqualTo(AgentExit.SUCCEEDED);

    // The victim's agent, undumpable, reports as ever.
    Files.writeString(reports.resolve("release"), "");
    assertThat(victim.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(victim.exitValue())
        .as(Files.readString(dir.resolve("s_victim.log")))
        .isEqualTo(AgentExit.SUCCEEDED);
    assertThat(app.sim("s_victim").accepted()).isPresent();
    assertThat(Files.readString(dir.resolve("s_victim.log")))
        .doesNotContain("could not make this process unreadable");
  }

  /** Starts an agent as nobody, its token on stdin, its output in {@code <sim id>.log}. */
  private Process startAgent(
      String classPath, String simId, String token, Path spools, List<String> simulator)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            SETPRIV.toString(),
            "--reuid=" + NOBODY,
            "--regid=" + NOBODY,
            "--clear-groups",
            javaProgram().toString(),
            "-Xmx64m",
            "-XX:+UseSerialGC",
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            classPath,
            SimAgentMain.class.getName(),
            "--spool",
            spools.resolve(simId).toString(),
            "--heartbeat-millis",
            "100",
            "--chunk-millis",
            "100",
            "--"));
    command.addAll(simulator);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(simId + ".log").toFile());
    builder.environment().remove(SimContract.SIM_TOKEN);
    builder.environment().put(SimContract.MAIN_URL, app.url().toString());
    builder.environment().put(SimContract.SIM_ID, simId);
    Process agent = builder.start();
    agents.add(agent);
    try (OutputStream in = agent.getOutputStream()) {
      in.write((token + "\n").getBytes(StandardCharsets.US_ASCII));
    }
    return agent;
  }

  /** The agent's class path, copied where nobody may read it (the build's may be under /root). */
  private String readableCopyOfTheAgentsClassPath() throws IOException {
    List<String> copies = new ArrayList<>();
    int n = 0;
    for (String entry : SimAgentMain.classPath().split(java.io.File.pathSeparator)) {
      Path from = Path.of(entry);
      Path to = dir.resolve("classpath").resolve(Integer.toString(n++)).resolve(from.getFileName());
      copyReadable(from, to);
      copies.add(to.toString());
    }
    return String.join(java.io.File.pathSeparator, copies);
  }

  private Path readableCopyOfTheThief() throws IOException, URISyntaxException {
    Path classes =
        Path.of(MemoryThief.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String file = MemoryThief.class.getName().replace('.', '/') + ".class";
    Path to = dir.resolve("thief");
    copyReadable(classes.resolve(file), to.resolve(file));
    return to;
  }

  private void copyReadable(Path from, Path to) throws IOException {
    if (Files.isDirectory(from)) {
      try (Stream<Path> files = Files.walk(from)) {
        for (Path file : files.toList()) {
          if (Files.isRegularFile(file)) {
            copyReadable(file, to.resolve(from.relativize(file).toString()));
          }
        }
      }
      return;
    }
    for (Path folder = to.getParent(); !folder.equals(dir); folder = folder.getParent()) {
      Files.createDirectories(folder);
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Files.copy(from, to);
    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
  }

  /** A folder nobody may write in. */
  private Path openFolder(String name) throws IOException {
    Path folder = Files.createDirectories(dir.resolve(name));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
    return folder;
  }

  private static Path javaProgram() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  private static String random() {
    byte[] bytes = new byte[12];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
