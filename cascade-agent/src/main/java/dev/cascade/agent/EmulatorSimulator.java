package dev.cascade.agent;

import dev.cascade.agent.emulator.Emulation;
import dev.cascade.agent.emulator.Emulator;
import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.agent.emulator.Pacer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * The emulator run inside the agent's own JVM, on a thread, writing straight into the agent's
 * chunks: one JVM per sim instead of two (DESIGN.md section 15). Stopping it interrupts the thread.
 */
final class EmulatorSimulator implements Simulator {

  /** The exit code when the emulator was stopped, as a process killed by SIGTERM would give. */
  static final int STOPPED = 143;

  private final EmulatorOptions options;
  private final Pacer pacer;
  private volatile Thread thread;

  EmulatorSimulator(EmulatorOptions options, Pacer pacer) {
    this.options = Objects.requireNonNull(options, "options");
    this.pacer = Objects.requireNonNull(pacer, "pacer");
  }

  @Override
  public String description() {
    return "cascade emulate (in process) --trace "
        + options.trace()
        + " --config "
        + options.config()
        + " --replica "
        + options.replica()
        + " --speed "
        + options.speed();
  }

  @Override
  public void start(OutputStream out, IntConsumer onExit) {
    thread = Thread.ofPlatform().daemon().name("emulator").start(() -> onExit.accept(run(out)));
  }

  private int run(OutputStream out) {
    try {
      Emulation emulation = Emulator.prepare(options);
      return Emulator.run(emulation, options.speed(), out, pacer);
    } catch (InterruptedException e) {
      return STOPPED;
    } catch (IOException | RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      try {
        out.write(("cascade emulate: " + message + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException ignored) {
        // The output is the agent's own chunker, which does not fail.
      }
      return e instanceof IllegalArgumentException ? 2 : 1;
    }
  }

  @Override
  public void terminate(Duration grace) {
    Thread running = thread;
    if (running == null) {
      return;
    }
    running.interrupt();
    try {
      running.join(grace);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
