package dev.cascade.core.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a launcher needs to start one sim.
 *
 * @param command the program and its arguments
 * @param environment variables to add to the launcher's own environment (the sim contract's {@code
 *     CASCADE_*} variables among them)
 * @param workDir the folder the sim runs in
 * @param output the file the sim's stdout and stderr go to
 */
public record SimLaunch(
    String simId,
    String runId,
    int replica,
    List<String> command,
    Map<String, String> environment,
    Path workDir,
    Path output) {

  public SimLaunch {
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(workDir, "workDir");
    Objects.requireNonNull(output, "output");
    command = List.copyOf(command);
    environment = Map.copyOf(environment);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("sim " + simId + ": the command is empty");
    }
    if (replica < 0) {
      throw new IllegalArgumentException("sim " + simId + ": replica must be 0 or more");
    }
  }
}
