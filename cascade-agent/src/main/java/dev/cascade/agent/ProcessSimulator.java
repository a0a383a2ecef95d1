package dev.cascade.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * A simulator command run as a child process in a process group of its own ({@code setsid}), so
 * stopping it stops whatever it started too. stdout and stderr are read together; stdin is {@code
 * /dev/null}. Where {@code setsid} is missing the process and its descendants are signalled one by
 * one instead.
 */
final class ProcessSimulator implements Simulator {

  /** After the simulator exits, how long its output pipe may stay open (held by a child). */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

  /** The user token's variable (the app's, {@code AppEnvironment}), never passed on. */
  private static final String USER_TOKEN = "CASCADE_TOKEN";

  /** The exit code reported when the command could not be started at all. */
  static final int CANNOT_START = 127;

  private final List<String> command;
  private volatile Process process;
  private volatile boolean grouped;

  ProcessSimulator(List<String> command) {
    this.command = List.copyOf(Objects.requireNonNull(command, "command"));
    if (this.command.isEmpty()) {
      throw new IllegalArgumentException("no simulator command");
    }
  }

  @Override
  public Optional<ProcessHandle> process() {
    Process started = process;
    return started == null ? Optional.empty() : Optional.of(started.toHandle());
  }

  @Override
  public String description() {
    return String.join(" ", command);
  }

  @Override
  public void start(OutputStream out, IntConsumer onExit) throws IOException {
    Optional<Path> setsid =
        ProcessGroups.unavailableReason().isEmpty() ? ProcessGroups.setsid() : Optional.empty();
    List<String> line = new ArrayList<>();
    setsid.ifPresent(path -> line.add(path.toString()));
    line.addAll(command);
    Process started;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(line)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      // The simulator never holds a token: not the sim's, should a launcher of someone's own set it
      // in the agent's environment, nor a user's that reached the agent by mistake.
      builder.environment().remove(SimContract.SIM_TOKEN);
      builder.environment().remove(USER_TOKEN);
      started = builder.start();
    } catch (IOException e) {
      out.write(
          ("cascade sim-agent: cannot start the simulator '"
                  + command.getFirst()
                  + "': "
                  + e.getMessage()
                  + "\n")
              .getBytes(StandardCharsets.UTF_8));
      Thread.ofPlatform().daemon().start(() -> onExit.accept(CANNOT_START));
      return;
    }
    process = started;
    grouped = setsid.isPresent();
    Thread pump =
        Thread.ofPlatform()
            .daemon()
            .name("simulator-output")
            .start(() -> pump(started.getInputStream(), out));
    Thread.ofPlatform()
        .daemon()
        .name("simulator-exit")
        .start(() -> onExit.accept(awaitExit(started, pump)));
  }

  private static void pump(InputStream in, OutputStream out) {
    byte[] buffer = new byte[64 * 1024];
    try (in) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // The pipe closed under us (the process group was killed): the output ends here.
    }
  }

  private int awaitExit(Process started, Thread pump) {
    boolean interrupted = false;
    int code;
    while (true) {
      try {
        code = started.waitFor();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    try {
      if (!pump.join(DRAIN_TIMEOUT)) {
        // Something the simulator started still holds its output open: stop what is left.
        stopRemains(started);
        pump.join(DRAIN_TIMEOUT);
      } else if (grouped) {
        // Children the simulator left behind with their output elsewhere: stop them too.
        ProcessGroups.terminate(started.pid(), Duration.ofSeconds(1));
      }
    } catch (InterruptedException e) {
      interrupted = true;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return code;
  }

  private void stopRemains(Process started) {
    if (grouped) {
      ProcessGroups.terminate(started.pid(), Duration.ofSeconds(1));
    } else {
      started.descendants().forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Override
  public void terminate(Duration grace) {
    Process started = process;
    if (started == null) {
      return;
    }
    if (grouped) {
      // The group outlives its leader while any member is alive, so this also reaches children
      // left behind by a simulator that has already exited.
      ProcessGroups.terminate(started.pid(), grace);
      return;
    }
    List<ProcessHandle> tree = new ArrayList<>(started.descendants().toList());
    tree.add(started.toHandle());
    tree.forEach(ProcessHandle::destroy);
    try {
      if (!started.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        tree.forEach(ProcessHandle::destroyForcibly);
      } else {
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
      }
    } catch (InterruptedException e) {
      tree.forEach(ProcessHandle::destroyForcibly);
      Thread.currentThread().interrupt();
    }
  }
}
