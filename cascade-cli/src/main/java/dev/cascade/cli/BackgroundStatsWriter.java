package dev.cascade.cli;

import dev.cascade.accelsim.stats.BuildString;
import dev.cascade.accelsim.stats.KernelStats;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.MemcpyCommand;
import dev.cascade.accelsim.stats.StatsWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Hands every call to another {@link StatsWriter} on a writer thread, in order, through a bounded
 * queue (so a slow writer holds the parser back instead of piling up kernels in memory). The first
 * failure of the target comes out of the next call, or out of {@link #end}.
 */
final class BackgroundStatsWriter implements StatsWriter {
  private static final int QUEUE_LENGTH = 64;

  private interface Task {
    void run() throws IOException;
  }

  private static final Task STOP = () -> {};

  private final StatsWriter target;
  private final BlockingQueue<Task> tasks = new ArrayBlockingQueue<>(QUEUE_LENGTH);
  private final Thread writer;
  private volatile Exception failure;

  BackgroundStatsWriter(StatsWriter target) {
    this.target = target;
    writer = Thread.ofPlatform().name("cascade-stats-writer").daemon().start(this::drain);
  }

  private void drain() {
    try {
      for (Task task = tasks.take(); task != STOP; task = tasks.take()) {
        if (failure == null) {
          try {
            task.run();
          } catch (IOException | RuntimeException e) {
            failure = e; // keep taking tasks so the parser never blocks on a full queue
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void submit(Task task) {
    if (failure != null) {
      throw failure instanceof RuntimeException runtime
          ? runtime
          : new UncheckedIOException(failure.getMessage(), (IOException) failure);
    }
    try {
      tasks.put(task);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing the output", e);
    }
  }

  @Override
  public void begin() {
    submit(target::begin);
  }

  @Override
  public void beginFile(String file) {
    submit(() -> target.beginFile(file));
  }

  @Override
  public void onBuild(BuildString build) {
    submit(() -> target.onBuild(build));
  }

  @Override
  public void onMemcpy(MemcpyCommand memcpy) {
    submit(() -> target.onMemcpy(memcpy));
  }

  @Override
  public void onKernelLaunched(String name, long uid) {
    submit(() -> target.onKernelLaunched(name, uid));
  }

  @Override
  public void onKernelFinished(KernelStats kernel) {
    submit(() -> target.onKernelFinished(kernel));
  }

  @Override
  public void onEnd(LogOutcome outcome) {
    submit(() -> target.onEnd(outcome));
  }

  @Override
  public void endFile(LogOutcome outcome) {
    submit(() -> target.endFile(outcome));
  }

  /** Hands over the end, waits until the writer thread has written everything, and stops it. */
  @Override
  public void end() throws IOException {
    submit(target::end);
    submit(STOP);
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing the output", e);
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
  }
}
