package dev.cascade.slurm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * The files one job array runs from, in a folder only the user can read: {@code job.sh}, the same
 * for every task, and {@code task-<n>.env} per task with its sim's whole contract, which the script
 * reads by {@code SLURM_ARRAY_TASK_ID}. The token is a shell variable the script does not export:
 * the sim gets it as the first line of its standard input (a here-document). No secret is on a
 * command line, in the job's or the sim's environment, or in what {@code squeue} shows.
 */
final class SlurmJobFiles {

  private SlurmJobFiles() {}

  /**
   * Writes the folder's files for {@code tasks} (task {@code n} is sim {@code n}). With {@code
   * embed} (nodes that do not see this disk) the task files go inside the script instead, which
   * Slurm copies to the node and shows to the user and root only.
   */
  static Path write(Path folder, List<SlurmTask> tasks, List<String> command, boolean embed)
      throws IOException {
    Files.createDirectories(folder.getParent());
    if (!Files.isDirectory(folder)) {
      Files.createDirectory(
          folder,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    if (!embed) {
      for (int task = 0; task < tasks.size(); task++) {
        writePrivate(folder.resolve("task-" + task + ".env"), taskFile(tasks.get(task)));
      }
    }
    Path script = folder.resolve("job.sh");
    writePrivate(script, embed ? embeddedScript(tasks, command) : script(folder, command));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  /** The task's variables, exported, and where its sim runs and writes. */
  static String taskFile(SlurmTask task) {
    StringBuilder text = new StringBuilder("# sim ").append(task.simId()).append('\n');
    for (Map.Entry<String, String> variable : task.environment().entrySet()) {
      text.append("export ")
          .append(variable.getKey())
          .append('=')
          .append(quote(variable.getValue()))
          .append('\n');
    }
    text.append("sim_token=").append(quote(task.token())).append('\n');
    text.append("sim_dir=").append(quote(task.workDir().toString())).append('\n');
    text.append("sim_output=").append(quote(task.output().toString())).append('\n');
    return text.toString();
  }

  /**
   * Reads its task's file and deletes it (tasks are never requeued, so none reads it twice), enters
   * the sim's folder and becomes the sim, output to its file.
   */
  static String script(Path folder, List<String> command) {
    String taskFile = quote(folder.toString()) + "/task-\"$SLURM_ARRAY_TASK_ID\".env";
    return header() + ". " + taskFile + "\nrm -f " + taskFile + "\n" + body(command);
  }

  /** As {@link #script}, with every task's file inside it, chosen by the task id. */
  static String embeddedScript(List<SlurmTask> tasks, List<String> command) {
    StringBuilder text = new StringBuilder(header());
    text.append("case \"$SLURM_ARRAY_TASK_ID\" in\n");
    for (int task = 0; task < tasks.size(); task++) {
      text.append(task).append(")\n").append(taskFile(tasks.get(task))).append(";;\n");
    }
    text.append("*) echo \"no sim for array task $SLURM_ARRAY_TASK_ID\" >&2; exit 1 ;;\n");
    text.append("esac\n");
    return text.append(body(command)).toString();
  }

  private static String header() {
    return "#!/bin/sh\n# Written by Cascade's slurm launcher; each task runs its own sim.\nset -e\n";
  }

  private static String body(List<String> command) {
    StringBuilder text = new StringBuilder();
    text.append("mkdir -p \"$sim_dir\" \"$(dirname \"$sim_output\")\"\n");
    text.append("cd \"$sim_dir\"\n");
    text.append("exec");
    for (String word : command) {
      text.append(' ').append(quote(word));
    }
    // The token on stdin: a here-document, which is no file another user can read.
    text.append(" >>\"$sim_output\" 2>&1 <<CASCADE_SIM_TOKEN_END\n");
    text.append("$sim_token\n");
    text.append("CASCADE_SIM_TOKEN_END\n");
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
