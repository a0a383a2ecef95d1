package dev.cascade.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.function.IntConsumer;

/** What the sim agent supervises: a simulator process, or the emulator on a thread. */
interface Simulator {

  /**
   * Starts the simulator. Its output (stdout and stderr together) goes to {@code out}; once it has
   * exited and all its output is written, {@code onExit} gets its exit code, exactly once. A
   * simulator that cannot start reports why in {@code out} and exits with a non-zero code.
   */
  void start(OutputStream out, IntConsumer onExit) throws IOException;

  /**
   * Stops the simulator and everything it started: SIGTERM, then SIGKILL once {@code grace} has
   * passed. Returns once it is gone or SIGKILL was sent. Harmless when it has already exited.
   */
  void terminate(Duration grace);

  /**
   * The simulator's process once started, whose tree's memory the agent samples; empty for a
   * simulator that runs inside the agent's JVM (the emulator).
   */
  default java.util.Optional<ProcessHandle> process() {
    return java.util.Optional.empty();
  }

  /** The simulator, for people: its command line. */
  String description();
}
