package dev.cascade.core;

import dev.cascade.core.internal.AppEnvironment;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How a {@link Cascade} is set up. Immutable; made by {@link Cascade#builder()}, which rejects a
 * bad setting at once with a message naming the setting and the value.
 *
 * @param dataDir where everything lives: {@code cascade.db}, traces, sims' work folders
 * @param launcher starts and stops sims
 * @param catalog the GPU configs sims can run on
 * @param clock time, injectable so tests can move it
 * @param maxLaunches launch calls in flight at once ({@code CASCADE_MAX_LAUNCHES}, 8)
 * @param heartbeatTimeout silence that makes a running sim {@code lost} ({@code
 *     CASCADE_HEARTBEAT_TIMEOUT_S}, 60 s); 10 times it makes the sim {@code failed}
 * @param monitorInterval how often the heartbeat monitor looks (5 s); zero turns the background
 *     monitor off, for tests that run the check themselves
 * @param uploadQuietPeriod how long a trace's files must be still before it is processed ({@code
 *     CASCADE_UPLOAD_QUIET_S}, 10 s)
 * @param traceRescanInterval how often the traces folder is rescanned besides being watched
 * @param finishedStopDelay how long a sim that reported its end has to exit before it is stopped
 * @param simCommand the command every sim runs ({@code CASCADE_SIM_CMD}); by default what {@link
 *     #simCommandFromEnvironment} picks: the sim agent with Accel-Sim or with the emulator
 * @param simEnvironment extra variables every sim gets
 * @param mainUrl where sims reach the app ({@code CASCADE_MAIN_URL}); null means the URL of the
 *     server Cascade starts
 * @param simulator the simulator whose output sims print: how it is parsed into kernels and how its
 *     failures are classed ({@link Simulators#accelSim()} by default, which the emulator imitates)
 * @param server the HTTP server Cascade starts for sims to report to (and for the API and UI); null
 *     when the embedder starts one itself or sims report elsewhere. By default, when no {@code
 *     mainUrl} is given, a loopback server on a free port.
 * @param logs how sims' logs are kept: compressed, and for how long ({@code CASCADE_LOG_RETENTION})
 * @param memory how local sims are fitted to the machine's memory, and how often a sim the
 *     out-of-memory killer ended is tried ({@code CASCADE_MEMORY_RESERVE}, {@code
 *     CASCADE_SIM_MEMORY_LIMIT}, {@code CASCADE_OOM_ATTEMPTS})
 */
public record CascadeSettings(
    Path dataDir,
    Launcher launcher,
    GpuConfigCatalog catalog,
    Clock clock,
    int maxLaunches,
    Duration heartbeatTimeout,
    Duration monitorInterval,
    Duration uploadQuietPeriod,
    Duration traceRescanInterval,
    Duration finishedStopDelay,
    List<String> simCommand,
    Map<String, String> simEnvironment,
    String mainUrl,
    ServerSettings server,
    Simulator simulator,
    LogSettings logs,
    MemorySettings memory) {

  public static final int MAX_LAUNCHES_LIMIT = 256;

  public CascadeSettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(launcher, "launcher");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(simulator, "simulator");
    Objects.requireNonNull(logs, "logs");
    Objects.requireNonNull(memory, "memory");
    if (mainUrl == null && server == null) {
      throw new IllegalArgumentException(
          "sims need somewhere to report: give a mainUrl or let Cascade start a server");
    }
    simCommand = List.copyOf(simCommand);
    simEnvironment = Map.copyOf(simEnvironment);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The data dir {@code CASCADE_DATA_DIR} names in {@code environment}, for a caller that needs it
   * before building (as {@code cascade serve} does to seed it); empty when unset or blank.
   */
  public static Optional<Path> dataDirFromEnvironment(Map<String, String> environment) {
    return new AppEnvironment(environment).dataDir();
  }

  /**
   * The GPU config catalog {@code environment} asks for: {@code CASCADE_ACCELSIM_CONFIGS}, else
   * {@code $CASCADE_ACCELSIM_DIR/gpu-simulator/gpgpu-sim/configs/tested-cfgs} with each config's
   * {@code trace.config} from beside it or from {@code gpu-simulator/configs/tested-cfgs/<name>/}
   * ({@link GpuConfigCatalog#forAccelSim}), else the built-in one. The same catalog {@link
   * Builder#fromEnvironment} sets.
   *
   * @throws CascadeException {@code INVALID}, naming the variable and its value, when the folder
   *     does not exist
   */
  public static GpuConfigCatalog catalogFromEnvironment(Map<String, String> environment) {
    return new AppEnvironment(environment).catalog();
  }

  /**
   * The sim command {@code environment} asks for, and why: {@code CASCADE_SIM_CMD} (split on white
   * space) when set; else the sim agent with Accel-Sim when {@code CASCADE_ACCELSIM_DIR} holds a
   * built one; else the agent with the emulator at {@code CASCADE_EMULATE_SPEED} cycles per second
   * ({@link SimCommands#DEMO_SPEED} when unset). The default of {@link Builder#simCommand}.
   */
  public static SimCommands.Choice simCommandFromEnvironment(
      Map<String, String> environment, Path dataDir) {
    return new AppEnvironment(environment).simCommandChoice(dataDir);
  }

  /**
   * The server's user token, {@code CASCADE_TOKEN} in {@code environment}, without surrounding
   * white space; empty when unset or blank. For {@link ServerSettings#withToken}.
   */
  public static Optional<String> tokenFromEnvironment(Map<String, String> environment) {
    return new AppEnvironment(environment).token();
  }

  /** The file in the data dir a server takes its user token from when nothing else names one. */
  public static final String TOKEN_FILE_NAME = "api-token";

  /**
   * Where a server's user token came from, and the token (null for none).
   *
   * @param token the token; null when no source gave one
   * @param source in words, for the start-up lines: {@code "--token-file /etc/cascade/token"}
   * @param inEnvironment true when it came from {@code CASCADE_TOKEN} in the server's own
   *     environment, where every process of the same user can read it ({@code
   *     /proc/<pid>/environ}): the caller should warn
   */
  public record ServerToken(String token, String source, boolean inEnvironment) {}

  /**
   * The server's user token, from the first of: {@code tokenFile} (the {@code --token-file} option;
   * null for none); the file {@code CASCADE_TOKEN_FILE} names (the descriptor {@code ./cascade
   * serve} passes {@code CASCADE_TOKEN} on); {@value #TOKEN_FILE_NAME} in {@code dataDir} when it
   * exists; {@code CASCADE_TOKEN} in {@code environment}, as a fallback the caller should warn
   * about. None of them: no token.
   *
   * @throws CascadeException {@code INVALID} naming the file when a token file cannot be read, is
   *     empty, or can be read by other users
   */
  public static ServerToken serverToken(
      Map<String, String> environment, Path tokenFile, Path dataDir) {
    AppEnvironment app = new AppEnvironment(environment);
    if (tokenFile != null) {
      return new ServerToken(tokenFromFile(tokenFile), "--token-file " + tokenFile, false);
    }
    Optional<Path> named = app.tokenFile();
    if (named.isPresent()) {
      return new ServerToken(
          tokenFromFile(named.get()), AppEnvironment.TOKEN_FILE + "=" + named.get(), false);
    }
    Path inData = dataDir.resolve(TOKEN_FILE_NAME);
    if (Files.exists(inData)) {
      return new ServerToken(tokenFromFile(inData), inData.toString(), false);
    }
    Optional<String> inEnvironment = app.token();
    return inEnvironment
        .map(token -> new ServerToken(token, AppEnvironment.TOKEN, true))
        .orElseGet(() -> new ServerToken(null, "none", false));
  }

  /**
   * The token in {@code file}, without surrounding white space: a regular file only its owner can
   * read, or a descriptor such as {@code /dev/fd/3}.
   *
   * @throws CascadeException {@code INVALID} naming the file when it cannot be read, is empty, or
   *     can be read or written by its group or others
   */
  public static String tokenFromFile(Path file) {
    try {
      if (Files.isRegularFile(file)
          && Files.getFileStore(file).supportsFileAttributeView(PosixFileAttributeView.class)) {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        for (PosixFilePermission permission : permissions) {
          if (permission.name().startsWith("GROUP_") || permission.name().startsWith("OTHERS_")) {
            throw new CascadeException(
                ErrorCode.INVALID,
                "the token file \""
                    + file
                    + "\" can be used by other users (mode "
                    + PosixFilePermissions.toString(permissions)
                    + "); make it the owner's only: chmod 600 "
                    + file,
                "token-file");
          }
        }
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file)) {
        bytes = in.readNBytes(4096);
      }
      String token = new String(bytes, StandardCharsets.UTF_8).strip();
      if (token.isEmpty()) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "the token file \"" + file + "\" is empty; write the token into it",
            "token-file");
      }
      return token;
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "cannot read the token file \"" + file + "\": " + e + "; check the path",
          "token-file",
          e);
    }
  }

  /** Builds {@link CascadeSettings} and the {@link Cascade} made from them. */
  public static final class Builder {
    private Path dataDir;
    private Launcher launcher;
    private Simulator simulator;
    private GpuConfigCatalog catalog;
    private Clock clock = Clock.systemUTC();
    private int maxLaunches = 8;
    private Integer localSlots;
    private Duration heartbeatTimeout = Duration.ofSeconds(60);
    private Duration monitorInterval = Duration.ofSeconds(5);
    private Duration uploadQuietPeriod = Duration.ofSeconds(10);
    private Duration traceRescanInterval = Duration.ofSeconds(2);
    private Duration finishedStopDelay = Duration.ofSeconds(30);
    private List<String> simCommand = List.of();
    private Map<String, String> simEnvironment = Map.of();
    private String mainUrl;
    private AppEnvironment environment = new AppEnvironment(Map.of());
    private ServerSettings server;
    private boolean noServer;
    private LogSettings logs = LogSettings.defaults();
    private MemorySettings memory = MemorySettings.defaults();

    private Builder() {}

    /**
     * Reads the {@code CASCADE_*} settings present in {@code environment}: {@code
     * CASCADE_DATA_DIR}, {@code CASCADE_MAX_LAUNCHES}, {@code CASCADE_LOCAL_SLOTS}, {@code
     * CASCADE_HEARTBEAT_TIMEOUT_S}, {@code CASCADE_LOG_RETENTION}, the memory settings ({@code
     * CASCADE_MEMORY_RESERVE}, {@code CASCADE_SIM_MEMORY_LIMIT}, {@code CASCADE_OOM_ATTEMPTS}),
     * {@code CASCADE_UPLOAD_QUIET_S}, {@code CASCADE_SIM_CMD}, {@code CASCADE_MAIN_URL}, the
     * variables {@code CASCADE_SIM_ENV_PASS} names (added to the sim environment, under what {@link
     * #simEnvironment} sets), {@code LD_LIBRARY_PATH} (passed on, with the library folders of the
     * Accel-Sim {@code CASCADE_ACCELSIM_DIR} names first: {@link SimCommands#accelSimLibraryPath}),
     * and the GPU config catalog ({@link #catalogFromEnvironment}). Absent ones keep their value.
     * The default sim command is chosen from the same variables ({@link
     * #simCommandFromEnvironment}). The builder reads no other environment: without this call, none
     * at all.
     */
    public Builder fromEnvironment(Map<String, String> environment) {
      AppEnvironment variables = new AppEnvironment(environment);
      this.environment = variables;
      variables.dataDir().ifPresent(this::dataDir);
      variables.maxLaunches().ifPresent(this::maxLaunches);
      variables.localSlots().ifPresent(this::localSlots);
      variables.heartbeatTimeout().ifPresent(this::heartbeatTimeout);
      variables.logRetention().ifPresent(limit -> logs(logs.withRetention(limit)));
      memory(variables.memory(memory));
      variables.uploadQuietPeriod().ifPresent(this::uploadQuietPeriod);
      variables.simCommand().ifPresent(this::simCommand);
      variables.mainUrl().ifPresent(this::mainUrl);
      Map<String, String> passed = new java.util.HashMap<>(variables.simEnvironmentPassed());
      variables.simLibraryPath().ifPresent(path -> passed.put("LD_LIBRARY_PATH", path));
      if (!passed.isEmpty()) {
        Map<String, String> merged = new java.util.HashMap<>(passed);
        merged.putAll(simEnvironment);
        simEnvironment(merged);
      }
      catalog(variables.catalog());
      return this;
    }

    public Builder dataDir(Path dataDir) {
      this.dataDir = Objects.requireNonNull(dataDir, "dataDir").toAbsolutePath().normalize();
      return this;
    }

    public Builder launcher(Launcher launcher) {
      this.launcher = Objects.requireNonNull(launcher, "launcher");
      return this;
    }

    /** The launcher found on the class path under {@code name} ({@code local}, {@code sail}). */
    public Builder launcher(String name) {
      return launcher(Launchers.byName(name));
    }

    /** How sims' logs are kept ({@link LogSettings#defaults()}: compressed, kept until dropped). */
    public Builder logs(LogSettings logs) {
      this.logs = Objects.requireNonNull(logs, "logs");
      return this;
    }

    /**
     * How local sims are fitted to the machine's memory and how often a sim the out-of-memory
     * killer ended is tried ({@link MemorySettings#defaults()}: a 512 MiB reserve, 3 attempts).
     */
    public Builder memory(MemorySettings memory) {
      this.memory = Objects.requireNonNull(memory, "memory");
      return this;
    }

    /** The simulator whose output sims print ({@link Simulators#accelSim()} by default). */
    public Builder simulator(Simulator simulator) {
      this.simulator = Objects.requireNonNull(simulator, "simulator");
      return this;
    }

    /** The simulator found on the class path under {@code name} ({@code accel-sim}). */
    public Builder simulator(String name) {
      return simulator(Simulators.byName(name));
    }

    public Builder catalog(GpuConfigCatalog catalog) {
      this.catalog = Objects.requireNonNull(catalog, "catalog");
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder maxLaunches(int maxLaunches) {
      if (maxLaunches < 1 || maxLaunches > MAX_LAUNCHES_LIMIT) {
        throw new IllegalArgumentException(
            "maxLaunches must be 1 to " + MAX_LAUNCHES_LIMIT + "; got " + maxLaunches);
      }
      this.maxLaunches = maxLaunches;
      return this;
    }

    /**
     * How many sims the local launcher runs at once ({@code CASCADE_LOCAL_SLOTS}; by default one
     * per core); the others wait as {@code pending} for a slot. Other launchers leave the waiting
     * to their scheduler and ignore it.
     */
    public Builder localSlots(int localSlots) {
      this.localSlots = LocalLauncher.requireSlots(localSlots);
      return this;
    }

    public Builder heartbeatTimeout(Duration heartbeatTimeout) {
      this.heartbeatTimeout = positive("heartbeatTimeout", heartbeatTimeout);
      return this;
    }

    /** Zero turns the background monitor off. */
    public Builder monitorInterval(Duration monitorInterval) {
      Objects.requireNonNull(monitorInterval, "monitorInterval");
      if (monitorInterval.isNegative()) {
        throw new IllegalArgumentException(
            "monitorInterval cannot be negative; got " + monitorInterval);
      }
      this.monitorInterval = monitorInterval;
      return this;
    }

    public Builder uploadQuietPeriod(Duration uploadQuietPeriod) {
      this.uploadQuietPeriod = positive("uploadQuietPeriod", uploadQuietPeriod);
      return this;
    }

    public Builder traceRescanInterval(Duration traceRescanInterval) {
      this.traceRescanInterval = positive("traceRescanInterval", traceRescanInterval);
      return this;
    }

    public Builder finishedStopDelay(Duration finishedStopDelay) {
      Objects.requireNonNull(finishedStopDelay, "finishedStopDelay");
      if (finishedStopDelay.isNegative()) {
        throw new IllegalArgumentException(
            "finishedStopDelay cannot be negative; got " + finishedStopDelay);
      }
      this.finishedStopDelay = finishedStopDelay;
      return this;
    }

    public Builder simCommand(List<String> simCommand) {
      Objects.requireNonNull(simCommand, "simCommand");
      if (simCommand.isEmpty() || simCommand.stream().anyMatch(w -> w == null || w.isBlank())) {
        throw new IllegalArgumentException(
            "simCommand must be a program and its arguments, none blank; got " + simCommand);
      }
      this.simCommand = List.copyOf(simCommand);
      return this;
    }

    public Builder simEnvironment(Map<String, String> simEnvironment) {
      this.simEnvironment = Map.copyOf(simEnvironment);
      return this;
    }

    public Builder mainUrl(String mainUrl) {
      Objects.requireNonNull(mainUrl, "mainUrl");
      if (!mainUrl.startsWith("http://") && !mainUrl.startsWith("https://")) {
        throw new IllegalArgumentException(
            "mainUrl must be an http:// or https:// URL; got \"" + mainUrl + "\"");
      }
      this.mainUrl = mainUrl;
      return this;
    }

    /**
     * Starts an HTTP server with these settings beside Cascade: the API, the web UI, and where sims
     * report (unless {@link #mainUrl} says otherwise).
     */
    public Builder server(ServerSettings server) {
      this.server = Objects.requireNonNull(server, "server");
      this.noServer = false;
      return this;
    }

    /** Starts no HTTP server: the embedder runs one, or sims report to {@link #mainUrl}. */
    public Builder noServer() {
      this.server = null;
      this.noServer = true;
      return this;
    }

    /** The settings; the data dir is required, the rest has defaults. */
    public CascadeSettings settings() {
      if (dataDir == null) {
        throw new IllegalStateException("set dataDir: where Cascade keeps its database and traces");
      }
      Launcher chosen = launcher != null ? launcher : new LocalLauncher();
      if (localSlots != null && chosen instanceof LocalLauncher local) {
        chosen = local.withSlots(localSlots);
      }
      return new CascadeSettings(
          dataDir,
          chosen,
          catalog != null ? catalog : GpuConfigCatalog.builtIn(),
          clock,
          maxLaunches,
          heartbeatTimeout,
          monitorInterval,
          uploadQuietPeriod,
          traceRescanInterval,
          finishedStopDelay,
          simCommand.isEmpty() ? environment.simCommandChoice(dataDir).command() : simCommand,
          simEnvironment,
          mainUrl,
          server != null || noServer || mainUrl != null
              ? server
              : ServerSettings.defaults().withPort(0),
          simulator != null ? simulator : Simulators.accelSim(),
          logs,
          memory);
    }

    /** A Cascade with these settings, not started yet. */
    public Cascade build() {
      return Cascade.of(settings());
    }

    private static Duration positive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive; got " + value);
      }
      return value;
    }
  }
}
