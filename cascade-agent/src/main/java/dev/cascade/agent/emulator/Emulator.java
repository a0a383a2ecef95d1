package dev.cascade.agent.emulator;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * {@code cascade emulate}: writes what Accel-Sim would print for a trace on a GPU config, paced by
 * {@code --speed} simulated cycles per wall second (DESIGN.md section 9). See {@link Emulation} for
 * the output and {@link TimingModel} for the numbers.
 *
 * <pre>{@code
 * EmulatorOptions options = EmulatorOptions.of(Path.of("trace"), "SM90_H100").withSpeed(0);
 * int exit = Emulator.run(Emulator.prepare(options), options.speed(), System.out, Pacer.system());
 * }</pre>
 */
public final class Emulator {

  private Emulator() {}

  /**
   * Reads the trace and the GPU config the options name.
   *
   * @throws IOException when the trace or the config cannot be read
   * @throws IllegalArgumentException when the config is unknown or incomplete
   */
  public static Emulation prepare(EmulatorOptions options) throws IOException {
    EmulatedGpu gpu = EmulatedGpu.resolve(options.config());
    EmulatedTrace trace = EmulatedTrace.load(options.trace(), options.countLimitBytes());
    return new Emulation(trace, gpu, options);
  }

  /**
   * Writes the whole run to {@code out}, each piece once the pacer's clock has reached its cycle
   * divided by {@code speed} (at once when {@code speed} is 0), flushing after every piece when
   * paced. Does not close {@code out}.
   *
   * @return the simulator's exit code (0, or the injected failure's)
   * @throws InterruptedException when the thread is interrupted: the run stops where it was
   * @throws IOException when {@code out} fails
   */
  public static int run(Emulation emulation, double speed, OutputStream out, Pacer pacer)
      throws IOException, InterruptedException {
    Objects.requireNonNull(emulation, "emulation");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(pacer, "pacer");
    long start = pacer.nanoTime();
    for (Emulation.Piece piece = emulation.next(); piece != null; piece = emulation.next()) {
      if (speed > 0) {
        pacer.sleepUntil(start + dueNanos(piece.cycle(), speed));
      } else if (Thread.interrupted()) {
        throw new InterruptedException("the emulator was stopped");
      }
      out.write(piece.bytes());
      if (speed > 0) {
        out.flush();
      }
    }
    out.flush();
    return emulation.exitCode();
  }

  /** Nanoseconds after the start at which simulated {@code cycle} is due at {@code speed}. */
  public static long dueNanos(long cycle, double speed) {
    if (speed <= 0) {
      return 0;
    }
    double nanos = cycle / speed * 1e9;
    return nanos >= Long.MAX_VALUE / 2.0 ? Long.MAX_VALUE / 2 : (long) nanos;
  }
}
