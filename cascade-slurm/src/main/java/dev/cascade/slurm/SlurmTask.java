package dev.cascade.slurm;

import dev.cascade.agent.SimContract;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One array task as its node sees it: the sim's variables, its folder and its output file. With
 * {@code shared} traces that is the launch as it is; with {@code fetch}, everything the sim touches
 * is in the node's scratch and the agent fetches the trace there.
 *
 * @param simId the sim
 * @param environment the sim's variables (its token is not among them)
 * @param token the sim's token, which reaches the sim on its standard input
 * @param workDir the folder it runs in
 * @param output the file its stdout and stderr go to
 */
record SlurmTask(
    String simId, Map<String, String> environment, String token, Path workDir, Path output) {

  static SlurmTask of(SimLaunch launch, SlurmLauncherSettings settings) {
    if (settings.traces() == SlurmLauncherSettings.TraceAccess.SHARED) {
      return new SlurmTask(
          launch.simId(),
          launch.environment(),
          launch.contract().simToken(),
          launch.workDir(),
          launch.output());
    }
    Path scratch = settings.nodeScratch();
    Map<String, String> environment = new LinkedHashMap<>(launch.environment());
    environment.put(SimContract.DATA_DIR, scratch.toString());
    environment.put(SimContract.TRACE_FETCH_DIR, scratch.resolve("traces").toString());
    // Replaced by the agent once the trace is in the node's cache.
    environment.put(
        SimContract.TRACE_DIR, scratch.resolve("traces").resolve("unfetched").toString());
    Path sims = scratch.resolve("work").resolve("sims");
    return new SlurmTask(
        launch.simId(),
        environment,
        launch.contract().simToken(),
        sims.resolve(launch.simId()),
        sims.resolve(launch.simId() + ".out"));
  }
}
