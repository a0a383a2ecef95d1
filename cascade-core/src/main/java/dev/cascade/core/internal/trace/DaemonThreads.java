package dev.cascade.core.internal.trace;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The trace store's threads: daemon threads, named, stopped with a bounded wait. */
final class DaemonThreads {

  private static final Logger log = LoggerFactory.getLogger(DaemonThreads.class);

  private DaemonThreads() {}

  /** Daemon threads named {@code <prefix>-1}, {@code <prefix>-2}, ... */
  static ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return work -> {
      Thread thread = new Thread(work, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Waits up to 10 s for a shut-down executor's threads to end; warns when they do not. */
  static void awaitTermination(ExecutorService executor, String what) {
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        log.warn("the trace store's {} thread did not stop within 10 s", what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
