package dev.cascade.core.internal;

import dev.cascade.core.CascadeSettings;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.Results;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.results.HardwareUploads;
import dev.cascade.core.internal.results.ResultsComparer;
import dev.cascade.core.internal.run.HeartbeatCheck;
import dev.cascade.core.internal.run.HeartbeatMonitor;
import dev.cascade.core.internal.run.HeartbeatTimes;
import dev.cascade.core.internal.run.LauncherStatusCheck;
import dev.cascade.core.internal.run.Launches;
import dev.cascade.core.internal.run.LogRetention;
import dev.cascade.core.internal.run.QueuedSims;
import dev.cascade.core.internal.run.RunService;
import dev.cascade.core.internal.run.RunSettings;
import dev.cascade.core.internal.run.SimMemory;
import dev.cascade.core.internal.run.SimMoves;
import dev.cascade.core.internal.run.SimReports;
import dev.cascade.core.internal.run.SimTokens;
import dev.cascade.core.internal.run.SlotQueue;
import dev.cascade.core.internal.run.TimeLimitCheck;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.internal.store.SimTokenRepository;
import dev.cascade.core.internal.store.UserRepository;
import dev.cascade.core.internal.trace.TraceStore;
import dev.cascade.core.internal.users.UserService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: builds the store, the trace store, the run service, sims' output and the
 * results from {@link CascadeSettings}, and closes them in reverse. The public facade ({@code
 * Cascade}) and the HTTP layer each take an engine; neither knows the other.
 *
 * <p>Two steps, because sims must know where to report before any launches and the HTTP server that
 * they report to needs the engine first: {@link #open} builds everything and starts watching
 * traces; {@link #startLaunching} launches what is pending and starts the heartbeat monitor.
 */
public final class Engine implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Engine.class);

  private final CascadeSettings settings;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private Database database;
  private TraceStore traces;
  private RunService runs;
  private SimReports reports;
  private Launches launches;
  private HeartbeatCheck heartbeatCheck;
  private TimeLimitCheck timeLimits;
  private final QueuedSims queued = new QueuedSims();
  private LauncherStatusCheck launcherStatusCheck;
  private Results results;
  private HardwareUploads hardware;
  private UserService users;
  private LogRetention storage;

  private Engine(CascadeSettings settings) {
    this.settings = settings;
  }

  /** Opens the database and starts watching traces; nothing launches yet. */
  public static Engine open(CascadeSettings settings) {
    Engine engine = new Engine(settings);
    try {
      engine.build();
      return engine;
    } catch (RuntimeException e) {
      engine.close();
      throw e;
    }
  }

  private void build() {
    try {
      Files.createDirectories(settings.dataDir());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data dir " + settings.dataDir(), e);
    }
    Clock clock = settings.clock();
    database = Database.open(settings.dataDir().resolve("cascade.db"));
    toClose.add(database);
    EventLog events = new EventLog(database);
    traces =
        TraceStore.builder()
            .dataDir(settings.dataDir())
            .database(database)
            .clock(clock)
            .quietPeriod(settings.uploadQuietPeriod())
            .rescanInterval(settings.traceRescanInterval())
            .build()
            .start();
    toClose.add(0, traces);
    SimRepository sims = new SimRepository(database, clock);
    SimOutput outputs =
        new SimOutput(
            database,
            events,
            clock,
            settings.catalog(),
            settings.simulator(),
            settings.logs().compress());
    RunSettings runSettings =
        new RunSettings(
            settings.dataDir(),
            settings.maxLaunches(),
            settings.heartbeatTimeout(),
            settings.monitorInterval(),
            settings.finishedStopDelay(),
            settings.simCommand(),
            settings.simEnvironment());
    SimMemory memory =
        settings.launcher() instanceof LocalLauncher
            ? SimMemory.local(settings.memory())
            : SimMemory.none(settings.memory());
    Map<String, Map<String, Long>> peaksByRun = sims.peakMemoryByRunAndConfig();
    memory.learn(peaksByRun, new RunRepository(database).traceIdsOf(peaksByRun.keySet()));
    SlotQueue slots = new SlotQueue(settings.launcher().slots(), memory);
    SimMoves moves = new SimMoves(database, sims, events, outputs, slots, clock);
    launches =
        new Launches(
            settings.launcher(),
            new SimTokens(new SimTokenRepository(database)),
            sims,
            moves,
            slots,
            memory,
            runSettings,
            clock);
    toClose.add(0, launches);
    runs =
        new RunService(
            database, sims, events, traces, settings.catalog(), moves, launches, outputs, clock);
    HeartbeatTimes heartbeatTimes = new HeartbeatTimes(database, sims);
    toClose.add(0, heartbeatTimes);
    reports =
        new SimReports(
            database, sims, moves, outputs, launches, heartbeatTimes, clock, settings.simulator());
    heartbeatCheck =
        new HeartbeatCheck(sims, heartbeatTimes, moves, launches, runSettings, clock, queued);
    launcherStatusCheck = new LauncherStatusCheck(settings.launcher(), sims, moves, queued, clock);
    timeLimits = new TimeLimitCheck(sims, new RunRepository(database), moves, launches, clock);
    results =
        new ResultsComparer(
            database,
            settings.catalog(),
            TraceStore.tracesFolder(settings.dataDir()),
            runs,
            settings.simulator().measures());
    hardware = new HardwareUploads(database, clock);
    users = new UserService(new UserRepository(database), clock);
    storage = new LogRetention(database, sims, settings.dataDir(), clock);
  }

  /** What runs keep on disk, and dropping old logs ({@code cascade gc}, the retention setting). */
  public LogRetention storage() {
    return storage;
  }

  /**
   * Lets sims launch, reporting to {@code mainUrl}: launches the sims left pending by a previous
   * process and starts the heartbeat monitor (unless its interval is zero).
   */
  public void startLaunching(String mainUrl) {
    launches.start(mainUrl);
    launches.failEnded();
    runs.launchPending();
    if (!settings.monitorInterval().isZero()) {
      Runnable checks =
          () -> {
            heartbeatCheck.run();
            timeLimits.run();
            retryOutOfMemory();
          };
      toClose.add(0, new HeartbeatMonitor(checks, settings.monitorInterval()));
      // Polls the launcher's own view (a Slurm queue) as often, so a task's end is known soon.
      toClose.add(0, new HeartbeatMonitor(launcherStatusCheck, settings.monitorInterval()));
    }
    settings
        .logs()
        .retentionLimit()
        .ifPresent(
            limit ->
                toClose.add(
                    0, new HeartbeatMonitor(() -> storage.collect(limit), Duration.ofHours(1))));
    log.info(
        "Cascade started: data in {}, sims by the {} launcher reporting to {}, configs from {}",
        settings.dataDir(),
        settings.launcher().name(),
        mainUrl,
        settings.catalog().source());
  }

  public CascadeSettings settings() {
    return settings;
  }

  public Clock clock() {
    return settings.clock();
  }

  /**
   * The option files of a run's entry as its sims read them (a variant's effective config), by file
   * name.
   *
   * @throws CascadeException {@code NOT_FOUND} for an entry the run does not have, or a config the
   *     catalog no longer has
   */
  public java.util.Map<String, String> entryConfigFiles(dev.cascade.core.Run run, int entry) {
    if (entry < 0 || entry >= run.entries().size()) {
      throw new dev.cascade.core.CascadeException(
          dev.cascade.core.ErrorCode.NOT_FOUND,
          "run \""
              + run.id()
              + "\" has entries 0 to "
              + (run.entries().size() - 1)
              + "; got "
              + entry,
          "entry");
    }
    dev.cascade.core.RunEntry wanted = run.entries().get(entry);
    dev.cascade.core.GpuConfig base =
        settings.catalog().list().stream()
            .filter(config -> config.name().equals(wanted.gpuConfig()))
            .findFirst()
            .orElseThrow(
                () ->
                    new dev.cascade.core.CascadeException(
                        dev.cascade.core.ErrorCode.NOT_FOUND,
                        "GPU config \""
                            + wanted.gpuConfig()
                            + "\" is no longer in the catalog ("
                            + settings.catalog().source()
                            + ")",
                        "entry"));
    return new dev.cascade.core.internal.catalog.ConfigVariants(
            settings.catalog(), settings.dataDir().resolve("work").resolve("configs"))
        .effectiveFiles(base, wanted, "entries[" + entry + "]");
  }

  public GpuConfigCatalog catalog() {
    return settings.catalog();
  }

  public TraceStore traces() {
    return traces;
  }

  public RunService runs() {
    return runs;
  }

  /** The sim side of the protocol: heartbeats, chunks, tokens. */
  /** The users of a shared server and their tokens. */
  public UserService users() {
    return users;
  }

  public SimReports reports() {
    return reports;
  }

  /** Where the API's Nsight Compute CSVs go. */
  public HardwareUploads hardware() {
    return hardware;
  }

  public Results results() {
    return results;
  }

  /**
   * Why Cascade cannot write its data (a read-only or full data dir), or empty when it can; asking
   * retries a harmless write while there is a fault, so it clears by itself.
   */
  public Optional<String> writeFault() {
    return database.writeFault();
  }

  /** One pass of the heartbeat monitor, for tests that turned the background one off. */
  public void checkHeartbeats() {
    heartbeatCheck.run();
  }

  /**
   * Tries again the sims the out-of-memory killer ended that have attempts left ({@code
   * CASCADE_OOM_ATTEMPTS}); the background monitor does it at each pass.
   */
  public void retryOutOfMemory() {
    int attempts = settings.memory().oomAttempts();
    if (attempts > 1) {
      runs.retryOutOfMemory(attempts);
    }
  }

  /** One pass of the time-limit check, for tests that turned the background monitor off. */
  public void checkTimeLimits() {
    timeLimits.run();
  }

  /** The most sims that ever held a slot of the launcher at once (0 without slots). */
  public int peakSlotsHeld() {
    return launches.peakSlotsHeld();
  }

  /** One poll of the launcher's own view of launched sims, for tests. */
  public void checkLauncherStatus() {
    launcherStatusCheck.run();
  }

  /** Sims waiting in their launcher's queue, with the launcher's reason. */
  public QueuedSims queued() {
    return queued;
  }

  /** The most launch calls that were ever in flight at once. */
  public int peakLaunchesInFlight() {
    return launches.peakLaunchesInFlight();
  }

  /** Stops the monitor, launching and trace watching, and closes the database. */
  @Override
  public void close() {
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
