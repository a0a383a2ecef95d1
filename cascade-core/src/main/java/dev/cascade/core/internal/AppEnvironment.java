package dev.cascade.core.internal;

import dev.cascade.core.CascadeException;
import dev.cascade.core.CascadeSettings;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.LocalLauncher;
import dev.cascade.core.MemorySettings;
import dev.cascade.core.SimCommands;
import dev.cascade.core.StandardConfigs;
import dev.cascade.core.internal.trace.TraceStore;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The app side's {@code CASCADE_*} variables: their names, and how each value is read. The only
 * code in core that knows them ({@code EnvironmentReaderTest}); {@link CascadeSettings} is its
 * public face. Each value is read when asked for, so a caller that needs one variable is not failed
 * by a bad value in another. A bad value is an error naming the variable and the value.
 *
 * <p>The sim side has its own reader, {@code SimContract} in cascade-agent.
 */
public final class AppEnvironment {

  public static final String DATA_DIR = "CASCADE_DATA_DIR";
  public static final String MAX_LAUNCHES = "CASCADE_MAX_LAUNCHES";

  /** How many sims the local launcher runs at once; the rest wait their turn. */
  public static final String LOCAL_SLOTS = "CASCADE_LOCAL_SLOTS";

  public static final String HEARTBEAT_TIMEOUT_S = "CASCADE_HEARTBEAT_TIMEOUT_S";

  /** How long sims' logs are kept ({@code 30d}); their results stay. */
  public static final String LOG_RETENTION = "CASCADE_LOG_RETENTION";

  /** Memory never handed to local sims ({@code 512M}, {@code 2G}). */
  public static final String MEMORY_RESERVE = "CASCADE_MEMORY_RESERVE";

  /** The most memory the local sims running at once may hold together ({@code 16G}). */
  public static final String SIM_MEMORY_LIMIT = "CASCADE_SIM_MEMORY_LIMIT";

  /** Attempts a sim gets in all when the out-of-memory killer ends it. */
  public static final String OOM_ATTEMPTS = "CASCADE_OOM_ATTEMPTS";

  /** Seconds with no file changed before an upload counts as complete. */
  public static final String UPLOAD_QUIET_S = "CASCADE_UPLOAD_QUIET_S";

  public static final String SIM_CMD = "CASCADE_SIM_CMD";
  public static final String MAIN_URL = "CASCADE_MAIN_URL";

  /** Names the folder of GPU configs; wins over {@link #ACCELSIM_DIR}. */
  public static final String ACCELSIM_CONFIGS = "CASCADE_ACCELSIM_CONFIGS";

  /** A built Accel-Sim: the simulator sims run, and its tested-cfgs folder the catalog. */
  public static final String ACCELSIM_DIR = "CASCADE_ACCELSIM_DIR";

  /**
   * Accel-Sim's composed config names ({@code define-standard-cfgs.yml}) the catalog takes; {@code
   * none} for none. Default: the Accel-Sim's own file ({@link #STANDARD_CFGS_FILE}) when there is
   * one.
   */
  public static final String STANDARD_CFGS = "CASCADE_STANDARD_CFGS";

  /** Where an Accel-Sim checkout keeps its composed config names. */
  public static final String STANDARD_CFGS_FILE =
      "util/job_launching/configs/define-standard-cfgs.yml";

  /** The dynamic loader's search path, passed on to sims (with Accel-Sim's libraries first). */
  static final String LIBRARY_PATH = "LD_LIBRARY_PATH";

  /** The emulator's cycles per second, spelled out in the default sim command. */
  public static final String EMULATE_SPEED = "CASCADE_EMULATE_SPEED";

  /**
   * The user bearer token: the client's credential. A server reads it only as a fallback, with a
   * warning, since every process of the same user can read a process's environment.
   */
  public static final String TOKEN = "CASCADE_TOKEN";

  /**
   * A file holding the server's user token (no secret itself): {@code ./cascade serve} names the
   * descriptor it passes {@value #TOKEN} on, {@code /dev/fd/3}.
   */
  public static final String TOKEN_FILE = "CASCADE_TOKEN_FILE";

  /**
   * Names of the app's variables every sim gets besides the contract's, comma-separated: the only
   * way anything else of the app's environment reaches a sim.
   */
  public static final String SIM_ENV_PASS = "CASCADE_SIM_ENV_PASS";

  private final Map<String, String> environment;

  public AppEnvironment(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /** {@value #DATA_DIR}, when set and not blank. */
  public Optional<Path> dataDir() {
    return nonBlank(DATA_DIR).map(Path::of);
  }

  /** {@value #MAX_LAUNCHES}, when set; a blank value is not a number. */
  public OptionalInt maxLaunches() {
    String value = environment.get(MAX_LAUNCHES);
    return value == null ? OptionalInt.empty() : OptionalInt.of(parseInt(MAX_LAUNCHES, value));
  }

  /** {@value #LOCAL_SLOTS}, when set; a blank value is not a number. */
  public OptionalInt localSlots() {
    String value = environment.get(LOCAL_SLOTS);
    return value == null ? OptionalInt.empty() : OptionalInt.of(parseInt(LOCAL_SLOTS, value));
  }

  /** {@value #HEARTBEAT_TIMEOUT_S} in seconds, when set; a blank value is not a number. */
  public Optional<Duration> logRetention() {
    String value = environment.get(LOG_RETENTION);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(dev.cascade.core.LogCollection.parseAge(value));
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, LOG_RETENTION + " " + e.getMessage(), null);
    }
  }

  /**
   * The memory settings {@value #MEMORY_RESERVE}, {@value #SIM_MEMORY_LIMIT} and {@value
   * #OOM_ATTEMPTS} give over {@code base}; unset or blank ones keep {@code base}'s.
   *
   * @throws CascadeException {@code INVALID} naming the variable and its value when it is not a
   *     size (or a whole number of attempts from 1)
   */
  public MemorySettings memory(MemorySettings base) {
    MemorySettings memory = base;
    Optional<String> reserve = nonBlank(MEMORY_RESERVE);
    if (reserve.isPresent()) {
      memory = setting(MEMORY_RESERVE, reserve.get(), memory, MemorySettings::withReserveBytes);
    }
    Optional<String> limit = nonBlank(SIM_MEMORY_LIMIT);
    if (limit.isPresent()) {
      memory = setting(SIM_MEMORY_LIMIT, limit.get(), memory, MemorySettings::withSimLimitBytes);
    }
    Optional<String> attempts = nonBlank(OOM_ATTEMPTS);
    if (attempts.isPresent()) {
      try {
        memory = memory.withOomAttempts(parseInt(OOM_ATTEMPTS, attempts.get()));
      } catch (IllegalArgumentException e) {
        throw new CascadeException(
            ErrorCode.INVALID,
            OOM_ATTEMPTS + "=\"" + attempts.get() + "\" is wrong: " + e.getMessage(),
            null,
            e);
      }
    }
    return memory;
  }

  /** {@code memory} with the size {@code value} of {@code variable} set on it by {@code set}. */
  private static MemorySettings setting(
      String variable, String value, MemorySettings memory, SizeSetter set) {
    try {
      return set.apply(memory, MemorySettings.parseSize(value));
    } catch (IllegalArgumentException e) {
      throw new CascadeException(
          ErrorCode.INVALID, variable + "=\"" + value + "\" is wrong: " + e.getMessage(), null, e);
    }
  }

  private interface SizeSetter {
    MemorySettings apply(MemorySettings memory, long bytes);
  }

  public Optional<Duration> heartbeatTimeout() {
    String value = environment.get(HEARTBEAT_TIMEOUT_S);
    return Optional.ofNullable(value)
        .map(seconds -> Duration.ofSeconds(parseInt(HEARTBEAT_TIMEOUT_S, seconds)));
  }

  /**
   * {@value #UPLOAD_QUIET_S} in seconds (fractions allowed), when set; a blank value asks for the
   * default.
   *
   * @throws CascadeException {@code INVALID} when the value is not a positive number
   */
  public Optional<Duration> uploadQuietPeriod() {
    String value = environment.get(UPLOAD_QUIET_S);
    if (value == null) {
      return Optional.empty();
    }
    if (value.isBlank()) {
      return Optional.of(TraceStore.DEFAULT_QUIET_PERIOD);
    }
    try {
      BigDecimal seconds = new BigDecimal(value.strip());
      if (seconds.signum() > 0 && seconds.compareTo(BigDecimal.valueOf(86_400L * 365)) <= 0) {
        Duration quiet = Duration.ofNanos(seconds.movePointRight(9).longValue());
        if (!quiet.isZero()) {
          return Optional.of(quiet);
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CascadeException(
        ErrorCode.INVALID,
        UPLOAD_QUIET_S
            + "=\""
            + value
            + "\" is not a positive number of seconds; set it to e.g. 10, or unset it for the"
            + " default of "
            + TraceStore.DEFAULT_QUIET_PERIOD.toSeconds(),
        UPLOAD_QUIET_S);
  }

  /** {@value #SIM_CMD} split on white space, when set and not blank. */
  public Optional<List<String>> simCommand() {
    return nonBlank(SIM_CMD).map(command -> Arrays.asList(command.strip().split("\\s+")));
  }

  /**
   * The variables {@value #SIM_ENV_PASS} names, with their values here (a name that is not set is
   * left out). The user token and the sim contract's own names cannot be passed.
   *
   * @throws CascadeException {@code INVALID} naming a name that is not a variable name or is
   *     reserved
   */
  public Map<String, String> simEnvironmentPassed() {
    Optional<String> names = nonBlank(SIM_ENV_PASS);
    if (names.isEmpty()) {
      return Map.of();
    }
    Map<String, String> passed = new java.util.TreeMap<>();
    for (String raw : names.get().split(",")) {
      String name = raw.strip();
      if (name.isEmpty()) {
        continue;
      }
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new CascadeException(
            ErrorCode.INVALID,
            SIM_ENV_PASS
                + " names \""
                + name
                + "\", which is not a variable name; list names such as LD_LIBRARY_PATH,CUDA_HOME",
            SIM_ENV_PASS);
      }
      if (name.equals(TOKEN)
          || name.equals(TOKEN_FILE)
          || name.equals(SIM_ENV_PASS)
          || name.startsWith("CASCADE_SIM_")) {
        throw new CascadeException(
            ErrorCode.INVALID,
            SIM_ENV_PASS
                + " names \""
                + name
                + "\", which is never passed to sims (the user token and the sim contract's own"
                + " variables); remove it",
            SIM_ENV_PASS);
      }
      String value = environment.get(name);
      if (value != null) {
        passed.put(name, value);
      }
    }
    return passed;
  }

  /**
   * The {@code LD_LIBRARY_PATH} sims get when {@value #ACCELSIM_DIR} names a built Accel-Sim with
   * GPGPU-Sim's libraries: those folders, then the app's own {@code LD_LIBRARY_PATH} ({@link
   * SimCommands#accelSimLibraryPath}); else the app's own when set (it is not a secret); else
   * empty.
   */
  public Optional<String> simLibraryPath() {
    String inherited = environment.get(LIBRARY_PATH);
    Optional<String> accelSim =
        nonBlank(ACCELSIM_DIR)
            .flatMap(dir -> SimCommands.accelSimLibraryPath(Path.of(dir.strip()), inherited));
    if (accelSim.isPresent()) {
      return accelSim;
    }
    return nonBlank(LIBRARY_PATH);
  }

  /** {@value #ACCELSIM_DIR}, when set and not blank. */
  public Optional<Path> accelSimDir() {
    return nonBlank(ACCELSIM_DIR).map(dir -> Path.of(dir.strip()));
  }

  /** {@value #ACCELSIM_CONFIGS}, when set and not blank. */
  public Optional<Path> accelSimConfigs() {
    return nonBlank(ACCELSIM_CONFIGS).map(dir -> Path.of(dir.strip()));
  }

  /**
   * What a local sim inherits of this environment ({@link
   * dev.cascade.core.LocalLauncher#BASE_VARIABLES}, those set) with {@code LD_LIBRARY_PATH} as sims
   * get it ({@link #simLibraryPath}): the environment a simulator starts in.
   */
  public Map<String, String> simProcessEnvironment() {
    Map<String, String> base = new java.util.LinkedHashMap<>();
    for (String name : LocalLauncher.BASE_VARIABLES) {
      String value = environment.get(name);
      if (value != null) {
        base.put(name, value);
      }
    }
    base.remove(LIBRARY_PATH);
    simLibraryPath().ifPresent(path -> base.put(LIBRARY_PATH, path));
    return base;
  }

  /** {@value #MAIN_URL}, when set and not blank. */
  public Optional<String> mainUrl() {
    return nonBlank(MAIN_URL);
  }

  /** {@value #TOKEN} without surrounding white space, when set and not blank. */
  public Optional<String> token() {
    return nonBlank(TOKEN).map(String::strip);
  }

  /** {@value #TOKEN_FILE}, when set and not blank. */
  public Optional<Path> tokenFile() {
    return nonBlank(TOKEN_FILE).map(String::strip).map(Path::of);
  }

  /**
   * The catalog asked for: {@value #ACCELSIM_CONFIGS}, else the configs of the Accel-Sim {@value
   * #ACCELSIM_DIR} names ({@link GpuConfigCatalog#forAccelSim}), else the built-in one; taking the
   * composed names of {@link #standardConfigsFile} when there are any. A variable naming a folder
   * or file that does not exist is an error that names it.
   */
  public GpuConfigCatalog catalog() {
    GpuConfigCatalog catalog = folderCatalog();
    return standardConfigsFile()
        .map(file -> catalog.withStandardConfigs(StandardConfigs.read(file)))
        .orElse(catalog);
  }

  /**
   * The composed names' file: {@value #STANDARD_CFGS} (which must be a file), else the Accel-Sim
   * {@value #ACCELSIM_DIR} names' {@value #STANDARD_CFGS_FILE} when it has one; none for {@code
   * none}.
   */
  Optional<Path> standardConfigsFile() {
    Optional<String> named = nonBlank(STANDARD_CFGS).map(String::strip);
    if (named.isPresent()) {
      if (named.get().equals("none")) {
        return Optional.empty();
      }
      Path file = Path.of(named.get());
      if (!Files.isRegularFile(file)) {
        throw new CascadeException(
            ErrorCode.INVALID,
            STANDARD_CFGS
                + "="
                + named.get()
                + " is not a file; name Accel-Sim's define-standard-cfgs.yml, or none",
            STANDARD_CFGS);
      }
      return Optional.of(file);
    }
    return nonBlank(ACCELSIM_DIR)
        .map(dir -> Path.of(dir.strip()).resolve(STANDARD_CFGS_FILE))
        .filter(Files::isRegularFile);
  }

  private GpuConfigCatalog folderCatalog() {
    Optional<String> configs = nonBlank(ACCELSIM_CONFIGS);
    if (configs.isPresent()) {
      Path folder = Path.of(configs.get());
      return GpuConfigCatalog.fromFolder(requireFolder(folder, ACCELSIM_CONFIGS, configs.get()));
    }
    Optional<String> accelSim = nonBlank(ACCELSIM_DIR);
    if (accelSim.isPresent()) {
      Path folder = Path.of(accelSim.get()).resolve(GpuConfigCatalog.TESTED_CFGS);
      requireFolder(folder, ACCELSIM_DIR, accelSim.get());
      return GpuConfigCatalog.forAccelSim(Path.of(accelSim.get()));
    }
    return GpuConfigCatalog.builtIn();
  }

  /**
   * The sim command: {@value #SIM_CMD} when set; else the agent with Accel-Sim when {@value
   * #ACCELSIM_DIR} holds a built one; else the agent with the emulator at {@value #EMULATE_SPEED}
   * ({@link SimCommands#DEMO_SPEED} when unset).
   */
  public SimCommands.Choice simCommandChoice(Path dataDir) {
    Optional<List<String>> given = simCommand();
    if (given.isPresent()) {
      return new SimCommands.Choice(given.get(), SIM_CMD + ": " + environment.get(SIM_CMD).strip());
    }
    Optional<Path> binary = nonBlank(ACCELSIM_DIR).map(Path::of).flatMap(SimCommands::accelSimIn);
    if (binary.isPresent()) {
      return new SimCommands.Choice(
          SimCommands.accelSim(binary.get(), dataDir),
          "Accel-Sim at " + binary.get() + ", through the sim agent");
    }
    String speed = nonBlank(EMULATE_SPEED).map(String::strip).orElse(SimCommands.DEMO_SPEED);
    // Its pace, said where a user starting a big run looks (run's first line, serve's start-up).
    String pace =
        speed.equals("0")
            ? "the emulator as fast as it can"
            : "the emulator at "
                + speed
                + " simulated cycles/s ("
                + EMULATE_SPEED
                + "=0 runs it as fast as it can)";
    String why =
        environment.containsKey(ACCELSIM_DIR)
            ? pace + "; no " + SimCommands.ACCELSIM_BINARY + " under " + ACCELSIM_DIR
            : pace + "; set " + ACCELSIM_DIR + " to a built Accel-Sim to run the real one";
    return new SimCommands.Choice(SimCommands.emulator(speed, dataDir), why);
  }

  private Optional<String> nonBlank(String variable) {
    String value = environment.get(variable);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  private static int parseInt(String variable, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          variable + " must be a whole number; got \"" + value + "\"", e);
    }
  }

  private static Path requireFolder(Path folder, String variable, String value) {
    if (!Files.isDirectory(folder)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "the GPU config folder \""
              + folder
              + "\" from "
              + variable
              + "="
              + value
              + " does not exist; point it at Accel-Sim's tested-cfgs folder, or unset it to use"
              + " the built-in catalog",
          ACCELSIM_CONFIGS);
    }
    return folder;
  }
}
