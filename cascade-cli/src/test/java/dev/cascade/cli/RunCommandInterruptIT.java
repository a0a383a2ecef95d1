package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code cascade run}, in a real process: what it says before the sims start is what it
 * does (cancels the run and stops every sim), and it says how to leave a run going instead.
 */
final class RunCommandInterruptIT {

  @TempDir Path dir;

  @Test
  void ctrlC_cancelsTheRunStopsItsSimsAndSaysSoBeforeAndAfter() throws Exception {
    Path data = dir.resolve("data");
    Path output = dir.resolve("run.out");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                CascadeCommand.class.getName(),
                "run",
                "demo",
                "SM90_H100:2",
                "--data-dir",
                data.toString(),
                "--plain")
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    builder.environment().put("CASCADE_EMULATE_SPEED", "500"); // minutes: Ctrl-C comes first
    Process run = builder.start();
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> read(output).contains("running") || !run.isAlive());
      assertThat(read(output)).contains(RunCommand.INTERRUPT_NOTE).contains("running");
      List<ProcessHandle> sims = run.toHandle().descendants().toList();
      assertThat(sims).isNotEmpty();

      new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();

      boolean exited = run.waitFor(60, TimeUnit.SECONDS);
      // If it hangs, say where: what it printed and what each of its threads was doing.
      assertThat(exited).as(() -> read(output) + "\n" + threadsOf(run)).isTrue();
      assertThat(run.exitValue()).isEqualTo(130);
      assertThat(read(output))
          .contains("cancelled (Ctrl-C): its 2 sims stopped")
          .contains("cascade runs create ... --watch");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> sims.stream().noneMatch(ProcessHandle::isAlive));
    } finally {
      run.descendants().forEach(ProcessHandle::destroyForcibly);
      run.destroyForcibly();
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (java.io.IOException e) {
      return "(cannot read " + file + ": " + e.getMessage() + ")";
    }
  }

  /** The process's thread dump, through the JDK's jcmd. */
  private static String threadsOf(Process process) {
    try {
      Process jcmd =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  Long.toString(process.pid()),
                  "Thread.print")
              .redirectErrorStream(true)
              .start();
      String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      jcmd.waitFor(30, TimeUnit.SECONDS);
      return dump;
    } catch (java.io.IOException e) {
      return "(no thread dump: " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(no thread dump: interrupted)";
    }
  }
}
