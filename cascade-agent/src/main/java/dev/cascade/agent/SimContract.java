package dev.cascade.agent;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the app tells every sim it launches (DESIGN.md section 7), as one typed value: the app side
 * writes it with {@link #toEnvironment} and {@link #tokenInput}, the sim side reads it with {@link
 * #fromEnvironment}. The variables' names live here and nowhere else.
 *
 * <p>The sim's token is never among the variables: every process of the same user can read a
 * process's environment ({@code /proc/<pid>/environ}), a sibling sim's included. It is the first
 * line of the sim's standard input ({@link #tokenInput}), which the sim reads at start, from every
 * launcher: Sail's exec, which has no standard input, hands it to a script that moves it there
 * ({@value #SIM_TOKEN}).
 *
 * @param mainUrl the app, for the sim's reports ({@value #MAIN_URL})
 * @param simId the sim ({@value #SIM_ID})
 * @param simToken the sim's bearer token: the first line of its standard input ({@link
 *     #tokenInput})
 * @param runId the sim's run ({@value #RUN_ID})
 * @param replica the replica number, 0 or more ({@value #REPLICA})
 * @param traceId the trace ({@value #TRACE_ID})
 * @param traceDir the trace's folder ({@value #TRACE_DIR})
 * @param gpuConfig the GPU config's name ({@value #GPU_CONFIG})
 * @param gpuConfigDir the GPU config's tested-cfgs folder; null for a built-in config, written as
 *     an empty value ({@value #GPU_CONFIG_DIR})
 * @param dataDir the app's data dir ({@value #DATA_DIR})
 * @param simCommand the sim's command, its words joined by spaces ({@value #SIM_CMD})
 */
public record SimContract(
    URI mainUrl,
    String simId,
    String simToken,
    String runId,
    int replica,
    String traceId,
    Path traceDir,
    String gpuConfig,
    Path gpuConfigDir,
    Path dataDir,
    String simCommand) {

  public static final String MAIN_URL = "CASCADE_MAIN_URL";
  public static final String SIM_ID = "CASCADE_SIM_ID";

  /**
   * Not a variable of the contract: the name under which the Sail launcher's exec carries the token
   * to the script that moves it to the agent's standard input, and which the agent removes from the
   * simulator's environment should anything set it. The agent never reads it.
   */
  public static final String SIM_TOKEN = "CASCADE_SIM_TOKEN";

  public static final String RUN_ID = "CASCADE_RUN_ID";
  public static final String REPLICA = "CASCADE_REPLICA";
  public static final String TRACE_ID = "CASCADE_TRACE_ID";
  public static final String TRACE_DIR = "CASCADE_TRACE_DIR";
  public static final String GPU_CONFIG = "CASCADE_GPU_CONFIG";
  public static final String GPU_CONFIG_DIR = "CASCADE_GPU_CONFIG_DIR";
  public static final String DATA_DIR = "CASCADE_DATA_DIR";
  public static final String SIM_CMD = "CASCADE_SIM_CMD";

  /**
   * Set by launchers whose nodes do not share the app's disk: the node-local folder where the agent
   * caches fetched traces by content hash ({@link TraceFetch}); unset, the trace is read in place.
   */
  public static final String TRACE_FETCH_DIR = "CASCADE_TRACE_FETCH_DIR";

  /**
   * How long the app waits for a silent sim before it fails it, in whole seconds (10 times its
   * heartbeat timeout): the agent keeps retrying, and spooling the simulator's output, this long
   * before it gives up, so a restart of the app shorter than this loses no sim.
   */
  public static final String APP_PATIENCE_S = "CASCADE_APP_PATIENCE_S";

  /**
   * The request header of a chunk ({@code PUT /api/sims/{id}/chunks/{seq}}) that says when the
   * agent read the chunk's last bytes from the simulator, in milliseconds since the epoch: a chunk
   * spooled while the app was away arrives late, and the app times the kernels it finishes by this,
   * not by the arrival. Agents that do not send it are timed by arrival.
   */
  public static final String CHUNK_READ_AT_HEADER = "Cascade-Chunk-Read-At";

  public SimContract {
    Objects.requireNonNull(mainUrl, "mainUrl");
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(simToken, "simToken");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(traceDir, "traceDir");
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(simCommand, "simCommand");
    if (replica < 0) {
      throw new IllegalArgumentException(
          "sim " + simId + ": the replica must be 0 or more; got " + replica);
    }
  }

  /**
   * The variables to give the sim's process, in DESIGN.md's order: all but the token ({@link
   * #tokenInput}).
   */
  public Map<String, String> toEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put(MAIN_URL, mainUrl.toString());
    environment.put(SIM_ID, simId);
    environment.put(RUN_ID, runId);
    environment.put(REPLICA, Integer.toString(replica));
    environment.put(TRACE_ID, traceId);
    environment.put(TRACE_DIR, traceDir.toString());
    environment.put(GPU_CONFIG, gpuConfig);
    environment.put(GPU_CONFIG_DIR, gpuConfigDir == null ? "" : gpuConfigDir.toString());
    environment.put(DATA_DIR, dataDir.toString());
    environment.put(SIM_CMD, simCommand);
    return environment;
  }

  /** What the sim's standard input starts with: its token and a newline. */
  public byte[] tokenInput() {
    return (simToken + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * The contract a sim was launched with.
   *
   * @param simToken the token read from the sim's standard input
   * @throws IllegalArgumentException naming the variable and its value, when one is missing or
   *     malformed, or when there is no token
   */
  public static SimContract fromEnvironment(Map<String, String> environment, String simToken) {
    Reporting reporting = Reporting.fromEnvironment(environment, simToken);
    String gpuConfigDir = environment.get(GPU_CONFIG_DIR);
    return new SimContract(
        reporting.mainUrl(),
        reporting.simId(),
        reporting.simToken(),
        required(environment, RUN_ID),
        replica(environment),
        required(environment, TRACE_ID),
        path(environment, TRACE_DIR, required(environment, TRACE_DIR)),
        required(environment, GPU_CONFIG),
        gpuConfigDir == null || gpuConfigDir.isBlank()
            ? null
            : path(environment, GPU_CONFIG_DIR, gpuConfigDir),
        path(environment, DATA_DIR, required(environment, DATA_DIR)),
        required(environment, SIM_CMD));
  }

  /** The part of the contract a sim needs to report to the app. */
  public Reporting reporting() {
    return new Reporting(mainUrl, simId, simToken, dataDir);
  }

  /**
   * What the sim agent needs of the contract to report: the app, the sim and its token, and where
   * the app keeps its data when it says.
   *
   * @param dataDir {@value #DATA_DIR}; null when it is not set
   */
  public record Reporting(URI mainUrl, String simId, String simToken, Path dataDir) {

    public Reporting {
      Objects.requireNonNull(mainUrl, "mainUrl");
      Objects.requireNonNull(simId, "simId");
      Objects.requireNonNull(simToken, "simToken");
    }

    /**
     * Reads {@value #MAIN_URL} and {@value #SIM_ID} (required) and {@value #DATA_DIR} (optional),
     * so the agent also runs where only those are set, with {@code simToken}.
     *
     * @param simToken the token read from the sim's standard input; null or blank when there was
     *     none, which is an error
     * @throws IllegalArgumentException naming the variable and its value, when one is missing or
     *     malformed, or when there is no token
     */
    public static Reporting fromEnvironment(Map<String, String> environment, String simToken) {
      String url = required(environment, MAIN_URL);
      String simId = required(environment, SIM_ID);
      if (simToken == null || simToken.isBlank()) {
        // Every process of the user could read it in the environment: it is not taken from there.
        String variable = environment.get(SIM_TOKEN);
        throw new IllegalArgumentException(
            "sim "
                + simId
                + ": no token: the app writes it as the first line of the sim's standard input"
                + (variable == null || variable.isBlank()
                    ? ""
                    : "; "
                        + SIM_TOKEN
                        + " in the environment is not read, as every process of the same user"
                        + " could read it there"));
      }
      simToken = simToken.strip();
      URI mainUrl;
      try {
        mainUrl = URI.create(url);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            MAIN_URL
                + " is not a URL: '"
                + environment.get(MAIN_URL)
                + "' ("
                + e.getMessage()
                + ")",
            e);
      }
      String dataDir = environment.get(DATA_DIR);
      return new Reporting(
          mainUrl,
          simId,
          simToken,
          dataDir == null || dataDir.isBlank() ? null : path(environment, DATA_DIR, dataDir));
    }
  }

  /** The variable's value without surrounding white space; it must be set and not blank. */
  private static String required(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          name + " is not set; the app sets it for every sim it launches (DESIGN.md section 7)");
    }
    return value.strip();
  }

  private static int replica(Map<String, String> environment) {
    String value = required(environment, REPLICA);
    try {
      int replica = Integer.parseInt(value);
      if (replica >= 0) {
        return replica;
      }
    } catch (NumberFormatException e) {
      // Reported below, with the value.
    }
    throw new IllegalArgumentException(
        REPLICA + " must be a whole number, 0 or more; got '" + environment.get(REPLICA) + "'");
  }

  private static Path path(Map<String, String> environment, String name, String value) {
    try {
      return Path.of(value.strip());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          name + " is not a path: '" + environment.get(name) + "' (" + e.getMessage() + ")", e);
    }
  }
}
