package dev.cascade.core.internal.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads that notice changes in the traces folder: a {@link FolderWatcher} thread turns file
 * events into requests to evaluate one trace (or, on overflow, to rescan all), and one scanner
 * thread runs those requests, the delayed quiet-period checks and the periodic rescan. Requests for
 * the same trace, or for a rescan, that are already pending are merged. A failing evaluation or
 * rescan is logged and retried by the next rescan.
 */
final class TraceWatch implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TraceWatch.class);
  private static final long CHECK_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final Path root;
  private final Duration rescanInterval;
  private final String threadSuffix;
  private final Consumer<String> evaluate;
  private final Runnable rescan;
  private final ScheduledThreadPoolExecutor scanner;
  private final Set<String> evaluationRequested = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean rescanRequested = new AtomicBoolean();
  private volatile FolderWatcher watcher;
  private volatile boolean closed;

  /**
   * @param evaluate looks at one trace folder (runs on the scanner thread)
   * @param rescan looks at every trace folder (runs on the scanner thread)
   */
  TraceWatch(
      Path root,
      Duration rescanInterval,
      String threadSuffix,
      Consumer<String> evaluate,
      Runnable rescan) {
    this.root = root;
    this.rescanInterval = rescanInterval;
    this.threadSuffix = threadSuffix;
    this.evaluate = evaluate;
    this.rescan = rescan;
    this.scanner =
        new ScheduledThreadPoolExecutor(
            1, DaemonThreads.named("cascade-trace-scanner-" + threadSuffix));
    scanner.setRemoveOnCancelPolicy(true);
  }

  /**
   * Starts watching the (existing) traces folder and schedules the periodic rescan, whose first
   * pass starts at once. When the folder cannot be watched, the rescan alone finds changes.
   */
  void start() {
    try {
      FolderWatcher folderWatcher =
          new FolderWatcher(
              root.toRealPath(),
              this::requestEvaluation,
              this::requestRescan,
              "cascade-trace-watcher-" + threadSuffix);
      folderWatcher.start();
      watcher = folderWatcher;
    } catch (IOException | RuntimeException e) {
      log.warn(
          "cannot watch the traces folder \"{}\" ({}); relying on the rescan every {}",
          root,
          e.toString(),
          rescanInterval);
    }
    scanner.scheduleWithFixedDelay(
        this::runRescan, 0, rescanInterval.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Evaluates trace {@code id} soon on the scanner thread, unless that is pending already. */
  void requestEvaluation(String id) {
    if (closed || !evaluationRequested.add(id)) {
      return;
    }
    try {
      scanner.execute(
          () -> {
            evaluationRequested.remove(id);
            guarded("evaluating trace \"" + id + "\"", () -> evaluate.accept(id));
          });
    } catch (RejectedExecutionException e) {
      evaluationRequested.remove(id);
    }
  }

  /** Rescans every trace soon on the scanner thread, unless that is pending already. */
  void requestRescan() {
    if (closed || !rescanRequested.compareAndSet(false, true)) {
      return;
    }
    try {
      scanner.execute(this::runRescan);
    } catch (RejectedExecutionException e) {
      rescanRequested.set(false);
    }
  }

  /**
   * Evaluates trace {@code id} again after {@code delayNanos}, replacing the check {@code previous}
   * (may be null).
   *
   * @return the new check; null when closing
   */
  ScheduledFuture<?> checkLater(String id, long delayNanos, ScheduledFuture<?> previous) {
    cancel(previous);
    try {
      return scanner.schedule(
          () -> guarded("checking trace \"" + id + "\"", () -> evaluate.accept(id)),
          Math.max(delayNanos, 0) + CHECK_MARGIN_NANOS,
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      return null; // closing
    }
  }

  /** Runs {@code work}; a failure is logged (unless closing), for the next rescan to retry. */
  void guarded(String what, Runnable work) {
    try {
      work.run();
    } catch (RuntimeException e) {
      if (!closed) {
        log.warn("trace store: {} failed; the next rescan retries", what, e);
      }
    }
  }

  static void cancel(ScheduledFuture<?> future) {
    if (future != null) {
      future.cancel(false);
    }
  }

  /** Stops watching and scanning; waits a few seconds for the threads to end. */
  @Override
  public void close() {
    closed = true;
    FolderWatcher folderWatcher = watcher;
    if (folderWatcher != null) {
      folderWatcher.close();
    }
    scanner.shutdownNow();
    DaemonThreads.awaitTermination(scanner, "scanner");
  }

  private void runRescan() {
    rescanRequested.set(false);
    guarded("rescan", rescan);
  }
}
