package dev.cascade.core;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.spi.Launcher;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Cascade, embedded: the one entry point. Build it, {@link #start()} it, use its {@link #runs()},
 * {@link #traces()}, {@link #results()} and {@link #configs()}, and close it. Closing stops
 * Cascade's own work; sims that are running keep running and report again after the next start.
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

  private final CascadeSettings settings;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private Engine engine;
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
   *
   * @throws CascadeException {@code invalid} (field {@code bind}) when the server's address is not
   *     loopback and there is no token; {@code unavailable} (field {@code port}) when its port is
   *     taken
   */
  public Cascade start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("this Cascade was already started");
    }
    try {
      engine = Engine.open(settings);
      if (settings.server() != null) {
        server = CascadeServer.start(engine, settings.server());
      }
      engine.startLaunching(settings.mainUrl() != null ? settings.mainUrl() : server.url());
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

  public CascadeSettings settings() {
    return settings;
  }

  public Path dataDir() {
    return settings.dataDir();
  }

  /** Create, follow and cancel runs, and read what their sims printed. */
  public Runs runs() {
    requireStarted();
    return engine.runs();
  }

  /** The traces uploaded into the data dir, and their states. */
  public Traces traces() {
    requireStarted();
    return engine.traces();
  }

  /** Per-config, per-kernel comparisons of a run's sims, with the spread across replicas. */
  public Results results() {
    requireStarted();
    return engine.results();
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

  /** Stops the server and Cascade's own work and closes the database; sims are left running. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (server != null) {
      server.close();
    }
    if (engine != null) {
      engine.close();
    }
  }
}
