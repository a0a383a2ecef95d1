package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
    List<String> command = new ArrayList<>();
    if (sigintIgnored(ProcessHandle.current().pid())) {
      // A build started as a background job ignores SIGINT, and so would its children: a JVM that
      // starts with SIGINT ignored never sees Ctrl-C. A user's terminal sends it to a process that
      // takes it, so start the child as one (coreutils' env resets the signal before exec).
      command.addAll(List.of("env", "--default-signal=INT"));
    }
    command.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            CascadeCommand.class.getName(),
            "run",
            "demo",
            "SM90_H100:2",
            "--data-dir",
            data.toString(),
            "--plain"));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().put("CASCADE_EMULATE_SPEED", "500"); // minutes: Ctrl-C comes first
    Process run = builder.start();
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> read(output).contains("running") || !run.isAlive());
      assertThat(read(output)).contains(RunCommand.INTERRUPT_NOTE).contains("running");
      List<ProcessHandle> sims = run.toHandle().descendants().toList();
      assertThat(sims).isNotEmpty();
      assumeFalse(
          sigintIgnored(run.pid()),
          "cascade run was started with SIGINT ignored (this build inherited it, and `env"
              + " --default-signal=INT` could not reset it): Ctrl-C cannot reach it, so there is"
              + " nothing to test; run the build in the foreground");

      new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();

      boolean exited = run.waitFor(60, TimeUnit.SECONDS);
      // If it hangs, say where: what it printed and what each of its threads was doing.
      assertThat(exited).as(() -> read(output) + "\n" + threadsOf(run)).isTrue();
      assertThat(run.exitValue()).isEqualTo(130);
      String printed = read(output);
      assertThat(printed)
          .contains("cancelled (Ctrl-C): its 2 sims stopped")
          .contains("cascade runs create ... --watch")
          .as("no results of a cancelled run, in:%n%s", printed)
          .doesNotContain("Whole trace, per GPU config")
          .doesNotContain("Results of run");
      assertThat(printed.lines().filter(line -> line.contains("cancelled")).toList())
          .as("the run's cancel said once, each sim's once, in:%n%s", printed)
          .hasSize(3)
          .filteredOn(line -> line.startsWith("Run "))
          .hasSize(1);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> sims.stream().noneMatch(ProcessHandle::isAlive));
    } finally {
      run.descendants().forEach(ProcessHandle::destroyForcibly);
      run.destroyForcibly();
    }
  }

  /**
   * Whether the process ignores SIGINT, from the {@code SigIgn} mask in {@code /proc/PID/status}
   * (bit 1 is signal 2); false where there is no such file.
   */
  private static boolean sigintIgnored(long pid) {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    try {
      return Files.readAllLines(status).stream()
          .filter(line -> line.startsWith("SigIgn:"))
          .anyMatch(line -> (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 0b10) != 0);
    } catch (java.io.IOException e) {
      return false;
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
