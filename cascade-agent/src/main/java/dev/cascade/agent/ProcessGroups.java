package dev.cascade.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Signals to whole process groups, through the system's {@code kill} (the JDK can only signal one
 * process). A sim started with {@code setsid} leads its own group, whose id is its pid, so stopping
 * the group also stops whatever the sim started.
 */
public final class ProcessGroups {

  private static final List<Path> SETSID =
      List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));
  private static final List<Path> KILL = List.of(Path.of("/usr/bin/kill"), Path.of("/bin/kill"));

  private ProcessGroups() {}

  /** The {@code setsid} program, when this system has one. */
  public static Optional<Path> setsid() {
    return SETSID.stream().filter(Files::isExecutable).findFirst();
  }

  /** Why process groups cannot be used here; empty when they can. */
  public static Optional<String> unavailableReason() {
    if (setsid().isEmpty()) {
      return Optional.of(
          "no setsid program (looked in /usr/bin and /bin; it comes with util-linux)");
    }
    if (kill().isEmpty()) {
      return Optional.of("no kill program (looked in /usr/bin and /bin)");
    }
    return Optional.empty();
  }

  /** True while any process of the group is alive (zombies included). */
  public static boolean isAlive(long groupId) {
    return signal(groupId, "0");
  }

  /**
   * SIGTERM to the group, then SIGKILL once {@code grace} has passed with any member still alive.
   * Returns once the group is gone or SIGKILL was sent. A group that is already gone is fine.
   */
  public static void terminate(long groupId, Duration grace) {
    if (!signal(groupId, "TERM")) {
      return;
    }
    long deadline = System.nanoTime() + grace.toNanos();
    while (System.nanoTime() < deadline) {
      if (!isAlive(groupId)) {
        return;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    signal(groupId, "KILL");
  }

  /** Sends a signal to every process of a group; false when no process received it. */
  static boolean signal(long groupId, String signal) {
    if (groupId <= 1) {
      throw new IllegalArgumentException("refusing to signal process group " + groupId);
    }
    Path kill = kill().orElseThrow(() -> new IllegalStateException("no kill program"));
    try {
      Process process =
          new ProcessBuilder(kill.toString(), "-s", signal, "--", "-" + groupId)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return true;
      }
      return process.exitValue() == 0;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + kill + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  private static Optional<Path> kill() {
    return KILL.stream().filter(Files::isExecutable).findFirst();
  }
}
