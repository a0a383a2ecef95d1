package dev.cascade.bench;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongConsumer;

/**
 * One platform thread that runs a whole load (many sims' timers and answers, no locks), and an HTTP
 * 1.1 client whose answers run on that thread too. Closing it stops both.
 */
final class EventLoop implements AutoCloseable {

  final ScheduledExecutorService executor;
  final HttpClient http;

  EventLoop(String threadName) {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> Thread.ofPlatform().daemon().name(threadName).unstarted(runnable));
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .executor(executor)
            .build();
  }

  /**
   * Runs {@code begin} on the loop with the time it all started ({@link System#nanoTime()}), waits
   * until {@code done} opens, and returns that time.
   */
  long runUntil(CountDownLatch done, LongConsumer begin) throws InterruptedException {
    long start = System.nanoTime();
    executor.execute(() -> begin.accept(start));
    done.await();
    return start;
  }

  @Override
  public void close() {
    executor.shutdownNow();
    http.shutdownNow();
  }
}
