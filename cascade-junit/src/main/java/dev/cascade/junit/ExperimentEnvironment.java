package dev.cascade.junit;

import dev.cascade.core.Cascade;
import dev.cascade.core.DemoTraces;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Launchers;
import dev.cascade.core.Run;
import dev.cascade.core.RunState;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.Sim;
import dev.cascade.core.SimCommands;
import dev.cascade.core.Trace;
import dev.cascade.core.spi.Launcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What one {@link CascadeExperiment} class runs against, from before its first test to after its
 * last: an embedded {@link Cascade} in a temporary data dir with its HTTP server on a free loopback
 * port (sims report over HTTP), or a client of a running server. Closing stops the sims still
 * going, closes the Cascade (and its server), and deletes the data dir.
 */
final class ExperimentEnvironment implements AutoCloseable {

  /** The emulator as fast as it can go: a demo sim takes about a second. */
  static final String EMULATOR_SPEED = "0";

  /** The same speed in the sims' own environment (the emulator's {@code EmulatorOptions}). */
  static final Map<String, String> EMULATOR_ENVIRONMENT =
      Map.of("CASCADE_EMULATE_SPEED", EMULATOR_SPEED);

  /** Short, so a trace the class starts with is ready a moment after its files are written. */
  static final Duration QUIET_PERIOD = Duration.ofMillis(200);

  private static final System.Logger log = System.getLogger(ExperimentEnvironment.class.getName());

  private final Cascade cascade;
  private final Experiment experiment;
  private final List<AutoCloseable> toClose;
  private final Path dataDir;
  private final String serverUrl;

  private ExperimentEnvironment(
      Cascade cascade,
      Experiment experiment,
      List<AutoCloseable> toClose,
      Path dataDir,
      String serverUrl) {
    this.cascade = cascade;
    this.experiment = experiment;
    this.toClose = toClose;
    this.dataDir = dataDir;
    this.serverUrl = serverUrl;
  }

  static ExperimentEnvironment start(ExperimentSettings settings) {
    return settings.remote() ? remote(settings) : embedded(settings);
  }

  /** The embedded Cascade; empty when the experiment runs on a server. */
  Optional<Cascade> cascade() {
    return Optional.ofNullable(cascade);
  }

  Experiment experiment() {
    return experiment;
  }

  /** Where the Cascade's HTTP API listens: the embedded server's URL, or the remote one. */
  String serverUrl() {
    return serverUrl;
  }

  private static ExperimentEnvironment remote(ExperimentSettings settings) {
    RemoteBackend backend = new RemoteBackend(settings.server(), settings.token()).check();
    return new ExperimentEnvironment(
        null,
        new Experiment(backend, settings.timeout()),
        List.of(backend),
        null,
        settings.server());
  }

  private static ExperimentEnvironment embedded(ExperimentSettings settings) {
    List<TraceSource> traces = TraceSource.of(settings.traces());
    Launcher launcher = Launchers.byName(settings.launcher());
    Path dataDir;
    try {
      dataDir = Files.createTempDirectory("cascade-experiment-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a data dir for the experiment", e);
    }
    List<AutoCloseable> started = new ArrayList<>();
    try {
      Simulator simulator = Simulator.of(settings.accelSim(), dataDir);
      Cascade cascade =
          Cascade.builder()
              .dataDir(dataDir)
              .launcher(launcher)
              .catalog(simulator.catalog())
              .simCommand(simulator.command())
              .simEnvironment(simulator.environment())
              .uploadQuietPeriod(QUIET_PERIOD)
              .traceRescanInterval(QUIET_PERIOD)
              .server(ServerSettings.defaults().withPort(0)) // where sims report
              .build()
              .start();
      started.add(0, cascade);
      started.add(0, () -> stopUnfinishedSims(cascade));

      Experiment experiment = new Experiment(new EmbeddedBackend(cascade), settings.timeout());
      addTraces(traces, cascade);
      for (TraceSource trace : traces) {
        experiment.requireReady(trace.id());
      }
      return new ExperimentEnvironment(
          cascade, experiment, started, dataDir, cascade.server().orElseThrow().url());
    } catch (RuntimeException | Error e) {
      closeAll(started);
      deleteQuietly(dataDir);
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeAll(started);
      deleteQuietly(dataDir);
      throw new IllegalStateException("interrupted while the experiment's traces got ready", e);
    }
  }

  @Override
  public void close() {
    closeAll(toClose);
    if (dataDir != null) {
      deleteQuietly(dataDir);
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** The simulator sims run, and the GPU configs that go with it. */
  private record Simulator(
      List<String> command, Map<String, String> environment, GpuConfigCatalog catalog) {

    static Simulator of(String accelSim, Path dataDir) {
      if (accelSim.isBlank()) {
        return new Simulator(
            SimCommands.emulator(EMULATOR_SPEED, dataDir),
            EMULATOR_ENVIRONMENT,
            GpuConfigCatalog.builtIn());
      }
      Path folder = Path.of(accelSim).toAbsolutePath().normalize();
      Path binary =
          SimCommands.accelSimIn(folder)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "accelSim \""
                              + accelSim
                              + "\" is not a built Accel-Sim: there is no executable "
                              + folder.resolve(SimCommands.ACCELSIM_BINARY)
                              + "; build Accel-Sim there, or leave accelSim empty to run the"
                              + " emulator"));
      return new Simulator(
          SimCommands.accelSim(binary, dataDir), Map.of(), GpuConfigCatalog.forAccelSim(folder));
    }
  }

  /**
   * A trace the class starts with: the demo or sample trace Cascade writes itself ({@code folder}
   * null), or a trace folder to copy in.
   */
  private record TraceSource(String id, Path folder) {

    /** The annotation's entries, checked before anything starts. */
    static List<TraceSource> of(List<String> entries) {
      List<TraceSource> sources = new ArrayList<>();
      Set<String> ids = new LinkedHashSet<>();
      for (String entry : entries) {
        TraceSource source;
        if (entry.equals(DemoTraces.DEMO_ID) || entry.equals(DemoTraces.SAMPLE_ID)) {
          source = new TraceSource(entry, null);
        } else {
          Path folder = Path.of(entry).toAbsolutePath().normalize();
          if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(
                "@CascadeExperiment(traces) entry \""
                    + entry
                    + "\" is neither \"demo\" nor a trace folder: "
                    + folder
                    + " is not a folder (relative paths start from the working directory, the"
                    + " module's folder under Maven)");
          }
          if (!Files.isRegularFile(folder.resolve("metadata.json"))) {
            throw new IllegalArgumentException(
                "trace folder "
                    + folder
                    + " has no metadata.json: a trace folder holds metadata.json and"
                    + " traces/kernelslist.g with its kernel files");
          }
          source = new TraceSource(Trace.requireValidId(folder.getFileName().toString()), folder);
        }
        if (!ids.add(source.id())) {
          throw new IllegalArgumentException(
              "@CascadeExperiment(traces) lists the trace \"" + source.id() + "\" twice");
        }
        sources.add(source);
      }
      return List.copyOf(sources);
    }
  }

  /** Writes the traces into the traces folder as an upload would leave them. */
  private static void addTraces(List<TraceSource> traces, Cascade cascade) {
    try {
      if (traces.stream().anyMatch(trace -> trace.folder() == null)) {
        DemoTraces.seedIfEmpty(cascade.dataDir());
      }
      for (TraceSource trace : traces) {
        if (trace.folder() != null) {
          copyTrace(trace.folder(), cascade.traces().folderOf(trace.id()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the experiment's traces into " + cascade.dataDir(), e);
    }
  }

  /** Copies a trace folder, {@code metadata.json} last as an upload must. */
  private static void copyTrace(Path from, Path to) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(from)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Path metadata = from.resolve("metadata.json");
    for (Path file : files) {
      if (!file.equals(metadata)) {
        Path target = to.resolve(from.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
    Files.createDirectories(to);
    Files.copy(metadata, to.resolve("metadata.json"));
  }

  /**
   * Cancels the runs still going and stops their sims now: with the server gone, nothing would tell
   * them to stop, and their agents would keep retrying.
   */
  private static void stopUnfinishedSims(Cascade cascade) {
    for (Run run : cascade.runs().list()) {
      if (run.state() != RunState.ACTIVE) {
        continue;
      }
      cascade.runs().cancel(run.id());
      for (Sim sim : run.sims()) {
        if (!sim.state().isFinished() && sim.launcherRef() != null) {
          cascade.launcher().stop(sim.launcherRef());
        }
      }
    }
  }

  private static void closeAll(List<AutoCloseable> closeables) {
    for (AutoCloseable closeable : closeables) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.log(
            System.Logger.Level.WARNING, "closing the experiment's " + closeable + " failed", e);
      }
    }
  }

  private static void deleteQuietly(Path folder) {
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      log.log(
          System.Logger.Level.WARNING,
          "cannot delete the experiment's data dir " + folder + ": " + e.getMessage());
    }
  }
}
