package dev.cascade.agent.emulator;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that jumps: waiting until a time sets the clock to it at once. For tests. */
final class VirtualPacer implements Pacer {

  private final AtomicLong now = new AtomicLong();
  private final AtomicLong waits = new AtomicLong();

  @Override
  public long nanoTime() {
    return now.get();
  }

  @Override
  public void sleepUntil(long deadline) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    if (deadline > now.get()) {
      waits.incrementAndGet();
      now.accumulateAndGet(deadline, Math::max);
    }
  }

  /** How many times a wait moved the clock. */
  public long waits() {
    return waits.get();
  }
}
