package dev.cascade.bench;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeServer;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.LogSettings;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.run.SimTokens;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.SimTokenRepository;
import dev.cascade.core.spi.Launcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Cascade in a fresh data dir with its HTTP server on a free loopback port (no token), the demo
 * trace written into its traces folder and ready, sims reporting to that server.
 */
final class EmbeddedCascade implements AutoCloseable {

  /** Short, so the demo trace is ready a moment after it is written (rescanned by hand below). */
  private static final Duration QUIET = Duration.ofMillis(200);

  final Cascade cascade;
  final CascadeServer server;
  final Trace trace;
  private Database tokenDatabase;
  private int simsCreated;

  private EmbeddedCascade(Cascade cascade, CascadeServer server, Trace trace) {
    this.cascade = cascade;
    this.server = server;
    this.trace = trace;
  }

  static EmbeddedCascade start(
      Path dataDir, Launcher launcher, List<String> simCommand, Map<String, String> simEnvironment)
      throws IOException, InterruptedException {
    return start(dataDir, launcher, simCommand, simEnvironment, LogSettings.defaults());
  }

  /** As above, keeping logs as {@code logs} says (compressed or not). */
  static EmbeddedCascade start(
      Path dataDir,
      Launcher launcher,
      List<String> simCommand,
      Map<String, String> simEnvironment,
      LogSettings logs)
      throws IOException, InterruptedException {
    deleteTree(dataDir);
    Cascade cascade =
        Cascade.builder()
            .dataDir(dataDir)
            .launcher(launcher)
            .catalog(GpuConfigCatalog.builtIn())
            .simCommand(simCommand)
            .simEnvironment(simEnvironment)
            .uploadQuietPeriod(QUIET)
            .logs(logs)
            .server(ServerSettings.defaults().withPort(0).withToken(null))
            .build()
            .start();
    try {
      DemoTraces.seedIfEmpty(dataDir);
      Trace trace = cascade.traces().await(DemoTraces.DEMO_ID, Duration.ofSeconds(60));
      if (trace.state() != TraceState.READY) {
        throw new IllegalStateException(
            "the demo trace is "
                + trace.state().wireName()
                + (trace.reason() == null ? " after 60 s" : ": " + trace.reason()));
      }
      return new EmbeddedCascade(cascade, cascade.server().orElseThrow(), trace);
    } catch (IOException | InterruptedException | RuntimeException e) {
      cascade.close();
      throw e;
    }
  }

  String url() {
    return server.url();
  }

  Path dataDir() {
    return cascade.dataDir();
  }

  /** Counts {@code sims} as created; returns how many this app made so far. */
  synchronized int simsCreated(List<?> sims) {
    simsCreated += sims.size();
    return simsCreated;
  }

  /**
   * Issues sim tokens for sims the benchmark plays itself (they are never launched, so no launcher
   * hands it theirs), on a database connection of its own to the app's data dir.
   */
  synchronized SimTokens simTokens() {
    if (tokenDatabase == null) {
      tokenDatabase = Database.open(dataDir().resolve("cascade.db"));
    }
    return new SimTokens(new SimTokenRepository(tokenDatabase));
  }

  /** The usable configs of the trace's architecture: a run has at most 64 sims of each. */
  List<String> configs() {
    return cascade.configs().list().stream()
        .filter(GpuConfig::usable)
        .filter(config -> config.arch().equals(trace.traceGpuArch()))
        .map(GpuConfig::name)
        .sorted()
        .toList();
  }

  /** The folder of the demo trace, as sims get it ({@code CASCADE_TRACE_DIR}). */
  Path traceFolder() {
    return cascade.traces().folderOf(trace.id());
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      if (tokenDatabase != null) {
        tokenDatabase.close();
      }
      cascade.close();
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
