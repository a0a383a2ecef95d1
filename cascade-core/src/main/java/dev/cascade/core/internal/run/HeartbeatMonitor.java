package dev.cascade.core.internal.run;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
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

  /** Only the scheduler's one thread reads and writes it. */
  private boolean unavailable;

  public HeartbeatMonitor(Runnable check, Duration interval) {
    scheduler.scheduleWithFixedDelay(
        () -> {
          try {
            check.run();
            if (unavailable) {
              unavailable = false;
              log.info("the heartbeat check works again");
            }
          } catch (CascadeException e) {
            if (e.code() != ErrorCode.UNAVAILABLE) {
              log.error("the heartbeat check failed; trying again in {}", interval, e);
            } else if (!unavailable) {
              // The store logs the cause as well; once is enough while it lasts.
              unavailable = true;
              log.warn(
                  "the heartbeat check cannot write: {}; trying again every {}",
                  e.getMessage(),
                  interval);
            }
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
