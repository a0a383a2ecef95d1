package dev.cascade.core.internal.run;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the run manager's heartbeat check at a fixed interval on a daemon thread. */
public final class HeartbeatMonitor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HeartbeatMonitor.class);

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cascade-heartbeat-monitor");
            thread.setDaemon(true);
            return thread;
          });

  public HeartbeatMonitor(Runnable check, Duration interval) {
    scheduler.scheduleWithFixedDelay(
        () -> {
          try {
            check.run();
          } catch (RuntimeException e) {
            log.error("the heartbeat check failed; trying again in {}", interval, e);
          }
        },
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
