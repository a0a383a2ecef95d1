package dev.cascade.core;

import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.results.ResultsComparer;
import dev.cascade.core.internal.run.HeartbeatMonitor;
import dev.cascade.core.internal.run.RunSettings;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.spi.Launcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cascade, embedded: the one entry point. Build it, {@link #start()} it, use its {@link #runs()},
 * {@link #traces()}, and {@link #configs()}, and close it. Closing stops Cascade's own work; sims
 * that are running keep running and report again after the next start.
 *
 * <pre>{@code
 * try (Cascade cascade = Cascade.builder().dataDir(dir).launcher(new LocalLauncher()).build().start()) {
 *   Run run = cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 4)));
 *   cascade.runs().await(run.id(), Duration.ofMinutes(30));
 *   cascade.results().compare(run.id()).forEach(System.out::println);
 * }
 * }</pre>
 */
public final class Cascade implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Cascade.class);

  private final CascadeSettings settings;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private Database database;
  private TraceStore traces;
  private RunManager runs;
  private Results results;
  private CascadeServer server;

  private Cascade(CascadeSettings settings) {
    this.settings = settings;
  }

  public static CascadeSettings.Builder builder() {
    return CascadeSettings.builder();
  }

  static Cascade of(CascadeSettings settings) {
    return new Cascade(settings);
  }

  /**
   * Opens the database, starts watching traces, starts the HTTP server its settings ask for (by
   * default a loopback one that sims report to), launches sims left pending by a previous process
   * and starts the heartbeat monitor. Returns this Cascade.
   */
  public Cascade start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("this Cascade was already started");
    }
    try {
      Files.createDirectories(settings.dataDir());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data dir " + settings.dataDir(), e);
    }
    try {
      database = Database.open(settings.dataDir().resolve("cascade.db"));
      toClose.add(database);
      EventLog events = new EventLog(database);
      traces =
          TraceStore.builder()
              .dataDir(settings.dataDir())
              .database(database)
              .clock(settings.clock())
              .quietPeriod(settings.uploadQuietPeriod())
              .rescanInterval(settings.traceRescanInterval())
              .build()
              .start();
      toClose.add(0, traces);
      SimOutput outputs = new SimOutput(database, events, settings.clock(), settings.catalog());
      RunSettings runSettings =
          new RunSettings(
              settings.dataDir(),
              settings.maxLaunches(),
              settings.heartbeatTimeout(),
              settings.monitorInterval(),
              settings.finishedStopDelay(),
              settings.simCommand(),
              settings.simEnvironment(),
              this::mainUrl);
      runs =
          new RunManager(
              database,
              events,
              traces,
              settings.catalog(),
              settings.launcher(),
              outputs,
              runSettings,
              settings.clock());
      toClose.add(0, runs::close);
      results = new ResultsComparer(database, settings.catalog());
      if (settings.server() != null) {
        server = CascadeServer.start(this, settings.server());
        toClose.add(0, server);
      }
      runs.launchPending();
      if (!settings.monitorInterval().isZero()) {
        HeartbeatMonitor monitor =
            new HeartbeatMonitor(runs::checkHeartbeats, settings.monitorInterval());
        toClose.add(0, monitor);
      }
      log.info(
          "Cascade started: data in {}, sims by the {} launcher, configs from {}",
          settings.dataDir(),
          settings.launcher().name(),
          settings.catalog().source());
      return this;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The HTTP server this Cascade started, when its settings asked for one. */
  public Optional<CascadeServer> server() {
    return Optional.ofNullable(server);
  }

  private String mainUrl() {
    if (settings.mainUrl() != null) {
      return settings.mainUrl().get();
    }
    return server.url();
  }

  public CascadeSettings settings() {
    return settings;
  }

  public Path dataDir() {
    return settings.dataDir();
  }

  public RunManager runs() {
    requireStarted();
    return runs;
  }

  public TraceStore traces() {
    requireStarted();
    return traces;
  }

  /** Per-config, per-kernel comparisons of a run's sims, with the spread across replicas. */
  public Results results() {
    requireStarted();
    return results;
  }

  public GpuConfigCatalog configs() {
    return settings.catalog();
  }

  public Launcher launcher() {
    return settings.launcher();
  }

  private void requireStarted() {
    if (!started.get() || closed.get()) {
      throw new IllegalStateException(
          closed.get() ? "this Cascade is closed" : "call start() before using this Cascade");
    }
  }

  /** Stops Cascade's own work and closes the database; running sims are left running. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (AutoCloseable closeable : toClose) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.warn("closing {} failed", closeable, e);
      }
    }
    toClose.clear();
  }
}
