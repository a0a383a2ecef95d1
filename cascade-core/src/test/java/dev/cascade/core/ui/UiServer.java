package dev.cascade.core.ui;

import static org.awaitility.Awaitility.await;

import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.agent.SimAgentMain;
import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeServer;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.Sim;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.trace.TraceStore;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A real Cascade server for the browser tests: the built-in GPU catalog, the demo traces ({@code
 * demo}: 5 kernels, sm_90, suggests SM90_H100; {@code sample-llama-mlp}: a sample), and sims that
 * are real sim agents running the emulator in their own JVMs, started by the local launcher. The
 * emulator's pace is read from a file at each launch, so a test picks fast or slow sims.
 */
final class UiServer implements AutoCloseable {

  static final Duration WAIT = Duration.ofSeconds(60);

  private final Path dataDir;
  private final Path speedFile;
  private final String token;
  private final LocalLauncher launcher = new LocalLauncher(Duration.ofSeconds(2));
  private int port;
  private Cascade cascade;
  private CascadeServer server;

  private UiServer(Path dir, String token) {
    this.dataDir = dir.resolve("data");
    this.speedFile = dir.resolve("emulate-speed");
    this.token = token;
  }

  /** Starts a server on a free port; {@code token} may be null (loopback, no token). */
  static UiServer start(Path dir, String token) throws IOException {
    Files.createDirectories(dir);
    UiServer ui = new UiServer(dir, token);
    ui.speed(0);
    ui.launch(0);
    DemoTraces.seedIfEmpty(ui.dataDir);
    await()
        .atMost(WAIT)
        .until(
            () ->
                ui.cascade
                        .traces()
                        .find(DemoTraces.DEMO_ID)
                        .map(t -> t.state() == TraceState.READY)
                        .orElse(false)
                    && ui.cascade
                        .traces()
                        .find(DemoTraces.SAMPLE_ID)
                        .map(t -> t.state() == TraceState.READY)
                        .orElse(false));
    return ui;
  }

  /** Whether this machine can run the local launcher's sims (setsid and friends). */
  static boolean launcherUnavailable() {
    return new LocalLauncher().unavailableReason().isPresent();
  }

  static String launcherUnavailableReason() {
    return new LocalLauncher().unavailableReason().orElse("");
  }

  private void launch(int port) {
    ServerSettings settings = ServerSettings.defaults().withPort(port);
    cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .uploadQuietPeriod(Duration.ofMillis(200))
            .traceRescanInterval(Duration.ofMillis(200))
            .simCommand(simCommand())
            .simEnvironment(Map.of())
            .server(token == null ? settings : settings.withToken(token))
            .build()
            .start();
    server = cascade.server().orElseThrow();
    this.port = server.port();
  }

  /**
   * A sim: the sim agent in a lean JVM, reporting often and retrying quickly, running the emulator
   * in process at the pace the speed file holds (simulated cycles per second; 0 is flat out).
   */
  private List<String> simCommand() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return List.of(
        "sh",
        "-c",
        "exec \"$0\" -XX:TieredStopAtLevel=1 -Xshare:auto -cp \"$1\" "
            + SimAgentMain.class.getName()
            + " --heartbeat-millis 500 --chunk-millis 250 --backoff-max-millis 1000"
            + " --emulate --speed \"$(cat \"$2\")\"",
        java,
        leanClassPath(),
        speedFile.toString());
  }

  private static String leanClassPath() {
    Set<String> entries = new LinkedHashSet<>();
    for (Class<?> type :
        List.of(SimAgentMain.class, KernelStatsParser.class, org.tukaani.xz.XZInputStream.class)) {
      try {
        entries.add(
            Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /** The emulator's pace for sims launched from now on, in simulated cycles per second. */
  void speed(double cyclesPerSecond) throws IOException {
    Files.writeString(speedFile, Double.toString(cyclesPerSecond));
  }

  String url() {
    return server.url();
  }

  Cascade cascade() {
    return cascade;
  }

  Path tracesFolder() {
    return TraceStore.tracesFolder(dataDir);
  }

  Run createRun(String traceId, RunEntry... entries) {
    return cascade.runs().create(traceId, List.of(entries));
  }

  /**
   * Stops the server and Cascade, as a crash or an upgrade would; sims keep running. {@link
   * #startAgain} brings both back on the same data dir and port.
   */
  void stop() {
    server.close();
    cascade.close();
  }

  void startAgain() {
    launch(port);
  }

  @Override
  public void close() {
    try {
      for (Run run : cascade.runs().list()) {
        for (Sim sim : run.sims()) {
          if (sim.launcherRef() != null && !sim.state().isFinished()) {
            launcher.stop(sim.launcherRef());
          }
        }
      }
    } finally {
      server.close();
      cascade.close();
    }
  }
}
