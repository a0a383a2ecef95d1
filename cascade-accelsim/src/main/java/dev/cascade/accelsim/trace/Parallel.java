package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one task per item on a bounded pool and returns the results in item order. The first failure
 * cancels the other tasks (interrupting them), waits for them to stop, so their cleanup has run,
 * and is rethrown as it was.
 */
final class Parallel {

  @FunctionalInterface
  interface Task<T, R> {
    R run(T item) throws IOException;
  }

  private Parallel() {}

  static <T, R> List<R> map(List<T> items, int parallelism, String threadName, Task<T, R> task)
      throws IOException {
    int threads = Math.min(parallelism, items.size());
    if (threads <= 1) {
      List<R> results = new ArrayList<>(items.size());
      for (T item : items) {
        results.add(task.run(item));
      }
      return results;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, named(threadName));
    try {
      CompletionService<Indexed<R>> completion = new ExecutorCompletionService<>(pool);
      for (int i = 0; i < items.size(); i++) {
        int index = i;
        T item = items.get(i);
        completion.submit(() -> new Indexed<>(index, task.run(item)));
      }
      List<R> results = new ArrayList<>(Collections.nCopies(items.size(), null));
      for (int done = 0; done < items.size(); done++) {
        Indexed<R> result = completion.take().get();
        results.set(result.index(), result.value());
      }
      return results;
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for " + threadName + " tasks");
    } finally {
      stop(pool);
    }
  }

  private static void stop(ExecutorService pool) {
    pool.shutdownNow();
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static IOException rethrow(Throwable cause) {
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    throw new UncheckedIOException(new IOException(cause));
  }

  private static ThreadFactory named(String name) {
    AtomicInteger next = new AtomicInteger(1);
    return runnable -> {
      Thread thread = new Thread(runnable, "cascade-" + name + "-" + next.getAndIncrement());
      thread.setDaemon(true);
      return thread;
    };
  }

  private record Indexed<R>(int index, R value) {}
}
