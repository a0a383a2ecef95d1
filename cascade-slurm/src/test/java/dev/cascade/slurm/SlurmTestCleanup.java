package dev.cascade.slurm;

import dev.cascade.core.testkit.SimAgents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Slurm test started, ended after it whatever way it ended: its jobs cancelled through
 * Slurm, then any sim agent still running in its folder stopped by pid. The second step is what a
 * cluster that went away mid-test needs: {@code scancel} cannot reach it, and the agent of a task
 * that already started lives on (parent 1) with nobody left to stop it.
 */
final class SlurmTestCleanup {

  private static final Logger log = LoggerFactory.getLogger(SlurmTestCleanup.class);

  private SlurmTestCleanup() {}

  /**
   * Cancels the jobs whose script is inside {@code dir} (the launcher writes each job's {@code
   * job.sh} in the app's data dir) and stops the sim agents running inside it. {@code settings} may
   * be null (the test skipped before it had any): then only the agents are looked for.
   */
  static void stopEverythingUnder(SlurmLauncherSettings settings, Path dir) {
    try {
      if (settings != null) {
        cancelJobsUnder(settings, dir);
      }
    } finally {
      List<Long> stopped = SimAgents.stopUnder(dir);
      if (!stopped.isEmpty()) {
        log.warn("stopped sim agents Slurm did not (pids {}) in {}", stopped, dir);
      }
    }
  }

  private static void cancelJobsUnder(SlurmLauncherSettings settings, Path dir) {
    SlurmCommands commands = new SlurmCommands(settings.slurmConf(), settings.commandTimeout());
    String folder = dir.toAbsolutePath().normalize().toString();
    try {
      List<String> jobs = new ArrayList<>();
      // %i: the job or array task ("14_2", "14_[0-3]" while pending); %o: its script.
      for (String line :
          commands.run(List.of("squeue", "--noheader", "--array", "--format=%i|%o")).split("\n")) {
        String[] fields = line.strip().split("\\|", 2);
        if (fields.length == 2 && fields[1].strip().startsWith(folder + "/")) {
          jobs.add(fields[0].strip());
        }
      }
      if (!jobs.isEmpty()) {
        List<String> cancel = new ArrayList<>(List.of("scancel"));
        cancel.addAll(jobs);
        commands.run(cancel);
      }
    } catch (SlurmException e) {
      // A cluster that is gone cancels nothing; the agents are stopped by pid all the same.
      log.warn("cannot cancel the test's Slurm jobs: {}", e.getMessage());
    }
  }
}
