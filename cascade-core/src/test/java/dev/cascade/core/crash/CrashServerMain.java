package dev.cascade.core.crash;

import dev.cascade.agent.SimAgentMain;
import dev.cascade.core.Cascade;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.testkit.TestTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The server {@link CrashMatrixIT} kills: a real Cascade in a JVM of its own, on a fixed port (so
 * sims find it again after a restart), with short heartbeat settings, at most two launches at once
 * and sims that are lean agent JVMs running the emulator. Prints {@code ready} once it serves.
 *
 * <p>Arguments: data dir, port, heartbeat timeout in milliseconds, emulator speed.
 */
public final class CrashServerMain {

  private CrashServerMain() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    Duration heartbeatTimeout = Duration.ofMillis(Long.parseLong(args[2]));
    String speed = args[3];
    if (!Files.exists(TestTraces.folder(dataDir, "demo"))) {
      TestTraces.writeReady(dataDir, "demo", 3);
    }
    List<String> sim =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:TieredStopAtLevel=1",
            "-cp",
            SimAgentMain.classPath(),
            SimAgentMain.class.getName(),
            "--heartbeat-millis",
            "200",
            "--chunk-millis",
            "200",
            "--emulate",
            "--speed",
            speed);
    Cascade cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(new LocalLauncher(Duration.ofSeconds(2)))
            .catalog(GpuConfigCatalog.builtIn())
            .maxLaunches(2)
            .heartbeatTimeout(heartbeatTimeout)
            .monitorInterval(Duration.ofMillis(200))
            .finishedStopDelay(Duration.ofSeconds(1))
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .simCommand(sim)
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(port))
            .build()
            .start();
    System.out.println("ready " + cascade.server().orElseThrow().port());
    System.out.flush();
    Thread.currentThread().join(); // until killed
  }
}
