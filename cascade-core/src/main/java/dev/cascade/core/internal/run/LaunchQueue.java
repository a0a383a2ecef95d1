package dev.cascade.core.internal.run;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs launch calls in the background, at most {@code maxInFlight} at once; the rest wait their
 * turn in submission order.
 */
final class LaunchQueue implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LaunchQueue.class);

  private final Semaphore slots;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger peakInFlight = new AtomicInteger();

  LaunchQueue(int maxInFlight) {
    this.slots = new Semaphore(maxInFlight, true);
  }

  void submit(String what, Runnable launch) {
    executor.execute(
        () -> {
          try {
            slots.acquire();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          try {
            launch.run();
          } catch (RuntimeException e) {
            if (executor.isShutdown()) {
              // Closing interrupts launches in flight; the next start recovers their sims.
              log.info("launching {} stopped: Cascade is shutting down ({})", what, e.getMessage());
            } else {
              log.error("launching {} failed unexpectedly", what, e);
            }
          } finally {
            inFlight.decrementAndGet();
            slots.release();
          }
        });
  }

  /** The most launches ever in flight at once. */
  int peakInFlight() {
    return peakInFlight.get();
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
