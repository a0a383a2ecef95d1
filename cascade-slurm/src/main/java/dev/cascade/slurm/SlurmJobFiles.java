package dev.cascade.slurm;

import dev.cascade.core.spi.SimLaunch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * The files one job array runs from, in a folder only the user can read: {@code job.sh}, the same
 * for every task, and {@code task-<n>.env} per task with its sim's whole contract, token included,
 * which the script reads by {@code SLURM_ARRAY_TASK_ID}. No secret is on a command line, in the
 * job's environment or in what {@code squeue} shows.
 */
final class SlurmJobFiles {

  private SlurmJobFiles() {}

  /** Writes the folder's files for {@code launches} (task {@code n} is launch {@code n}). */
  static Path write(Path folder, List<SimLaunch> launches) throws IOException {
    Files.createDirectories(folder.getParent());
    if (!Files.isDirectory(folder)) {
      Files.createDirectory(
          folder,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    for (int task = 0; task < launches.size(); task++) {
      writePrivate(folder.resolve("task-" + task + ".env"), taskFile(launches.get(task)));
    }
    Path script = folder.resolve("job.sh");
    writePrivate(script, script(folder, launches.getFirst().command()));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  /** The task's variables, exported, and where its sim runs and writes. */
  static String taskFile(SimLaunch launch) {
    StringBuilder text = new StringBuilder("# sim ").append(launch.simId()).append('\n');
    for (Map.Entry<String, String> variable : launch.environment().entrySet()) {
      text.append("export ")
          .append(variable.getKey())
          .append('=')
          .append(quote(variable.getValue()))
          .append('\n');
    }
    text.append("sim_dir=").append(quote(launch.workDir().toString())).append('\n');
    text.append("sim_output=").append(quote(launch.output().toString())).append('\n');
    return text.toString();
  }

  /** Reads its task's file, enters the sim's folder and becomes the sim, output to its file. */
  static String script(Path folder, List<String> command) {
    StringBuilder text = new StringBuilder("#!/bin/sh\n");
    text.append("# Written by Cascade's slurm launcher; each task reads its own sim's file.\n");
    text.append("set -e\n");
    text.append(". ")
        .append(quote(folder.toString()))
        .append("/task-\"$SLURM_ARRAY_TASK_ID\".env\n");
    text.append("mkdir -p \"$sim_dir\" \"$(dirname \"$sim_output\")\"\n");
    text.append("cd \"$sim_dir\"\n");
    text.append("exec");
    for (String word : command) {
      text.append(' ').append(quote(word));
    }
    text.append(" >>\"$sim_output\" 2>&1 </dev/null\n");
    return text.toString();
  }

  /** One shell word, in single quotes. */
  static String quote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }

  private static void writePrivate(Path file, String text) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }
}
