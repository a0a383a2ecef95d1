package dev.cascade.core.crash;

import dev.cascade.core.Cascade;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import dev.cascade.core.testkit.TestTraces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The server {@link AckedWritesCrashIT} kills: a real Cascade in a JVM of its own whose launcher
 * starts nothing and writes each launched sim's token to {@code <data dir>-tokens/<sim id>}, so the
 * test itself plays the sims (heartbeats, chunks, final heartbeats) with their real tokens. Prints
 * {@code ready} once it serves.
 *
 * <p>Arguments: data dir, port.
 */
public final class AckServerMain {

  private AckServerMain() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    if (!Files.exists(TestTraces.folder(dataDir, "demo"))) {
      TestTraces.writeReady(dataDir, "demo", 3);
    }
    Cascade cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(new TokenFileLauncher(tokensDir(dataDir)))
            .catalog(GpuConfigCatalog.builtIn())
            .maxLaunches(256)
            .heartbeatTimeout(Duration.ofSeconds(60)) // nothing goes lost while the test plays
            .monitorInterval(Duration.ofMillis(200))
            .finishedStopDelay(Duration.ofSeconds(1))
            .uploadQuietPeriod(Duration.ofMillis(100))
            .traceRescanInterval(Duration.ofMillis(100))
            .simCommand(List.of("true"))
            .simEnvironment(Map.of())
            .server(ServerSettings.defaults().withPort(port))
            .build()
            .start();
    System.out.println("ready " + cascade.server().orElseThrow().port());
    System.out.flush();
    Thread.currentThread().join(); // until killed
  }

  /** Where the launched sims' tokens go, beside the data dir. */
  static Path tokensDir(Path dataDir) {
    return dataDir.resolveSibling(dataDir.getFileName() + "-tokens");
  }

  /** Launches nothing: hands each sim's token over in a file, written whole (moved into place). */
  private static final class TokenFileLauncher implements Launcher {
    private final Path tokens;

    TokenFileLauncher(Path tokens) {
      this.tokens = tokens;
    }

    @Override
    public String name() {
      return "token-file";
    }

    @Override
    public String launch(SimLaunch launch) {
      try {
        Files.createDirectories(tokens);
        Path partial = tokens.resolve(launch.simId() + ".partial");
        Files.writeString(partial, launch.contract().simToken());
        Files.move(
            partial,
            tokens.resolve(launch.simId()),
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
        return "token-file:" + launch.simId();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void stop(String launcherRef) {
      // nothing runs
    }
  }
}
