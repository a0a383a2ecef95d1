package dev.cascade.agent.emulator;

/**
 * The emulator's sense of time: a clock and a way to wait for it. {@link #system()} is the real
 * one; {@link VirtualPacer} moves instantly, so tests of pacing take no wall time.
 */
public interface Pacer {

  /** Now, in nanoseconds from an arbitrary origin (as {@link System#nanoTime()}). */
  long nanoTime();

  /** Returns once {@link #nanoTime()} has reached {@code deadline}. */
  void sleepUntil(long deadline) throws InterruptedException;

  /** Real time. */
  static Pacer system() {
    return SystemPacer.INSTANCE;
  }

  /** The system clock, with sleeps of at most 100 ms so an interrupt is seen promptly. */
  final class SystemPacer implements Pacer {
    static final SystemPacer INSTANCE = new SystemPacer();

    private SystemPacer() {}

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void sleepUntil(long deadline) throws InterruptedException {
      for (long left = deadline - System.nanoTime();
          left > 0;
          left = deadline - System.nanoTime()) {
        long millis = Math.min(100, Math.max(1, left / 1_000_000));
        Thread.sleep(millis);
      }
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
  }
}
