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
 */
public record SimLaunch(
    SimContract contract,
    List<String> command,
    Map<String, String> extraEnvironment,
    Path workDir,
    Path output) {

  public SimLaunch {
    Objects.requireNonNull(contract, "contract");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(output, "output");
    command = List.copyOf(command);
    extraEnvironment = Map.copyOf(extraEnvironment);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("sim " + contract.simId() + ": the command is empty");
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
