package dev.cascade.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs Slurm's commands ({@code sbatch}, {@code squeue}, ...) and returns what they printed; with
 * {@code SLURM_CONF} set when the settings name a config. A command that cannot start, takes too
 * long or exits non-zero throws a {@link SlurmException} with its error output.
 */
class SlurmCommands {

  private final Path slurmConf;
  private final Duration timeout;

  SlurmCommands(Path slurmConf, Duration timeout) {
    this.slurmConf = slurmConf;
    this.timeout = timeout;
  }

  /** Runs {@code command} and returns its standard output. */
  String run(List<String> command) throws SlurmException {
    ProcessBuilder builder = new ProcessBuilder(command);
    if (slurmConf != null) {
      builder.environment().put("SLURM_CONF", slurmConf.toString());
    }
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new SlurmException(
          command.getFirst() + " cannot run (" + e.getMessage() + "): is Slurm installed here?", e);
    }
    CompletableFuture<String> out = read(process.getInputStream());
    CompletableFuture<String> err = read(process.getErrorStream());
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new SlurmException(
            String.join(" ", command.subList(0, Math.min(2, command.size())))
                + " did not answer within "
                + timeout.toSeconds()
                + " s: is the Slurm controller up?",
            null);
      }
      String error = err.join().strip();
      if (error.isEmpty() && process.exitValue() != 0) {
        error = out.join().strip(); // scontrol ping says DOWN on its standard output
      }
      if (process.exitValue() != 0) {
        throw new SlurmException(
            command.getFirst()
                + " failed (exit "
                + process.exitValue()
                + ")"
                + (error.isEmpty() ? "" : ": " + error),
            null);
      }
      return out.join();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new SlurmException(command.getFirst() + " was interrupted", e);
    }
  }

  private static CompletableFuture<String> read(java.io.InputStream stream) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            return "";
          }
        },
        runnable -> Thread.ofVirtual().start(runnable));
  }
}
