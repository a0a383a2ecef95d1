package dev.cascade.core.spi;

import dev.cascade.agent.SimContract;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a launcher needs to start one sim.
 *
 * @param contract what the sim is told (DESIGN.md section 7): which sim, run, replica, trace and
 *     GPU config, where to report and with which token
 * @param command the program and its arguments
 * @param extraEnvironment variables to add besides the contract's (the app's {@code
 *     simEnvironment}); the contract's own variables win over these
 * @param workDir the folder the sim runs in
 * @param output the file the sim's stdout and stderr go to
 * @param memoryBytes the memory the sim is predicted to need at its peak, in bytes (from earlier
 *     sims of its trace and config, else a first guess from the trace's size; more for each attempt
 *     after an out-of-memory kill): what a launcher that reserves memory per sim asks for when its
 *     user set none (Slurm's {@code --mem}); 0 when nothing is predicted
 */
public record SimLaunch(
    SimContract contract,
    List<String> command,
    Map<String, String> extraEnvironment,
    Path workDir,
    Path output,
    long memoryBytes) {

  /** A launch with no memory prediction. */
  public SimLaunch(
      SimContract contract,
      List<String> command,
      Map<String, String> extraEnvironment,
      Path workDir,
      Path output) {
    this(contract, command, extraEnvironment, workDir, output, 0);
  }

  public SimLaunch {
    Objects.requireNonNull(contract, "contract");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(output, "output");
    command = List.copyOf(command);
    extraEnvironment = Map.copyOf(extraEnvironment);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("sim " + contract.simId() + ": the command is empty");
    }
    if (memoryBytes < 0) {
      throw new IllegalArgumentException(
          "sim " + contract.simId() + ": memoryBytes cannot be negative; got " + memoryBytes);
    }
  }

  public String simId() {
    return contract.simId();
  }

  public String runId() {
    return contract.runId();
  }

  public int replica() {
    return contract.replica();
  }

  /**
   * The variables to add to the launcher's own environment: the extras, then the contract's {@code
   * CASCADE_*} variables over them.
   */
  public Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>(extraEnvironment);
    environment.putAll(contract.toEnvironment());
    return Collections.unmodifiableMap(environment);
  }
}
