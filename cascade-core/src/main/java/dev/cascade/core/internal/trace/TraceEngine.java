package dev.cascade.core.internal.trace;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.SkippedFolder;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.TraceRepository;
import dev.cascade.core.internal.trace.TraceLifecycle.Decision;
import dev.cascade.core.internal.trace.TraceLifecycle.Look;
import dev.cascade.core.internal.trace.TraceProcessor.Facts;
import dev.cascade.core.internal.trace.TraceProcessor.TraceProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every trace's state in step with its folder and in the {@code traces} table; the engine
 * behind {@code TraceStore}. It gathers what is on disk and stored, asks {@link TraceLifecycle}
 * what comes next, and carries that out: stores the trace, schedules a quiet-period check, or
 * processes the trace on a small pool, so a long post-processing run never holds up detection and a
 * trace is never processed twice at once.
 *
 * <p>Its parts: {@link TraceFolders} (where traces live, which folders are safe), {@link
 * TraceWatch} (the watcher and scanner threads that call {@link #evaluate}), {@link TraceListeners}
 * (delivers state changes in order). All threads are daemon threads, stopped by {@link #close}.
 * Decisions are made under one lock; processing runs outside it.
 */
public final class TraceEngine implements AutoCloseable {

  /** The S3 bucket uploads arrive in, under {@code $CASCADE_DATA_DIR/s3/}. */
  public static final String BUCKET = TraceFolders.BUCKET;

  /** The key prefix, and folder in the bucket, that holds one folder per trace. */
  public static final String PREFIX = TraceFolders.PREFIX;

  private static final Logger log = LoggerFactory.getLogger(TraceEngine.class);
  private static final int PROCESSING_THREADS = 2;
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final TraceFolders folders;
  private final TraceRepository repository;
  private final Clock clock;
  private final long quietNanos;
  private final TraceLifecycle lifecycle;
  private final TraceProcessor processor;

  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private final Map<String, Tracked> tracked = new HashMap<>();
  private final Set<String> processing = ConcurrentHashMap.newKeySet();

  private final TraceWatch watch;
  private final ExecutorService processors;
  private final TraceListeners listeners;
  private volatile boolean started;
  private volatile boolean closed;

  /** What the engine remembers of a trace between evaluations. */
  private static final class Tracked {
    FolderSnapshot snapshot;
    long changedAt;
    ScheduledFuture<?> check;

    Tracked(FolderSnapshot snapshot, long changedAt) {
      this.snapshot = snapshot;
      this.changedAt = changedAt;
    }
  }

  /**
   * An engine over {@code $dataDir/s3/cascade/accelsim-traces}, processing with the Accel-Sim
   * formats library.
   */
  public TraceEngine(
      Path dataDir, Database database, Clock clock, Duration quietPeriod, Duration rescanInterval) {
    this(
        tracesFolder(dataDir),
        database,
        clock,
        quietPeriod,
        rescanInterval,
        new EmulatorCountsStep(new AccelSimProcessor()));
  }

  TraceEngine(
      Path tracesFolder,
      Database database,
      Clock clock,
      Duration quietPeriod,
      Duration rescanInterval,
      TraceProcessor processor) {
    this.folders = new TraceFolders(tracesFolder);
    this.repository = new TraceRepository(Objects.requireNonNull(database, "database"));
    this.clock = Objects.requireNonNull(clock, "clock");
    this.quietNanos = requirePositive("quietPeriod", quietPeriod).toNanos();
    this.lifecycle = new TraceLifecycle(quietNanos);
    this.processor = Objects.requireNonNull(processor, "processor");
    int instance = INSTANCES.incrementAndGet();
    this.watch =
        new TraceWatch(
            folders.root(),
            requirePositive("rescanInterval", rescanInterval),
            "" + instance,
            this::evaluate,
            this::scanAll);
    this.processors =
        Executors.newFixedThreadPool(
            PROCESSING_THREADS, DaemonThreads.named("cascade-trace-processor-" + instance));
    this.listeners = new TraceListeners("cascade-trace-events-" + instance);
  }

  /** {@code $dataDir/s3/cascade/accelsim-traces}, absolute. */
  public static Path tracesFolder(Path dataDir) {
    return TraceFolders.tracesFolder(dataDir);
  }

  public Path tracesFolder() {
    return folders.root();
  }

  /**
   * Creates the traces folder when absent, starts watching it and schedules the periodic rescan,
   * whose first pass starts at once. A second call does nothing.
   */
  public void start() {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("the trace store is closed; build a new one");
      }
      if (started) {
        return;
      }
      started = true;
      try {
        Files.createDirectories(folders.root());
      } catch (IOException e) {
        throw new CascadeException(
            ErrorCode.UNAVAILABLE,
            "cannot create the traces folder \""
                + folders.root()
                + "\": "
                + e
                + "; check CASCADE_DATA_DIR and its permissions",
            null,
            e);
      }
      watch.start();
    } finally {
      lock.unlock();
    }
  }

  /** Every trace, oldest first. */
  public List<Trace> list() {
    return repository.list();
  }

  /** The folders of the traces folder that are not traces, with why, as the last scan found. */
  public List<SkippedFolder> skippedFolders() {
    return folders.skipped();
  }

  /** The trace with this id; empty for an unknown or invalid id. */
  public Optional<Trace> find(String id) {
    return Trace.isValidId(id) ? repository.find(id) : Optional.empty();
  }

  /**
   * The folder of trace {@code id}, guaranteed inside the traces folder: the id must be valid, and
   * when the folder is a symbolic link it must lead inside the traces folder too.
   *
   * @throws CascadeException {@code BAD_REQUEST} for an invalid id, {@code FORBIDDEN} for a link
   *     that leads outside the traces folder or nowhere
   */
  public Path folderOf(String id) {
    return folders.folderOf(id);
  }

  /** Runs one full pass over the traces folder now, on the calling thread. */
  public void rescan() {
    if (closed) {
      throw new IllegalStateException("the trace store is closed");
    }
    scanAll();
  }

  /** Calls {@code listener} with the trace after every change of state, in order, on one thread. */
  public void addListener(Consumer<Trace> listener) {
    listeners.add(listener);
  }

  public void removeListener(Consumer<Trace> listener) {
    listeners.remove(listener);
  }

  /** Stops watching, scanning and processing; waits a few seconds for the threads to end. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      tracked.values().forEach(t -> TraceWatch.cancel(t.check));
    } finally {
      lock.unlock();
    }
    processors.shutdownNow();
    watch.close();
    listeners.close();
    DaemonThreads.awaitTermination(processors, "processor");
  }

  // ---------------------------------------------------------------- scanning

  /** Evaluates every trace folder, and every stored or tracked trace whose folder is gone. */
  private void scanAll() {
    if (closed) {
      return;
    }
    Set<String> seen;
    try {
      seen = folders.list();
    } catch (IOException | RuntimeException e) {
      log.warn("cannot list the traces folder \"{}\": {}", folders.root(), e.toString());
      return;
    }
    for (String id : seen) {
      watch.guarded("evaluating trace \"" + id + "\"", () -> evaluate(id));
    }
    List<String> gone = new ArrayList<>();
    for (Trace trace : repository.list()) {
      if (!seen.contains(trace.id())) {
        gone.add(trace.id());
      }
    }
    lock.lock();
    try {
      for (String id : tracked.keySet()) {
        if (!seen.contains(id) && !gone.contains(id)) {
          gone.add(id);
        }
      }
    } finally {
      lock.unlock();
    }
    for (String id : gone) {
      watch.guarded("evaluating trace \"" + id + "\"", () -> evaluate(id));
    }
  }

  // ---------------------------------------------------------------- deciding

  /** Looks at one trace folder and moves the trace to the state its files call for. */
  private void evaluate(String id) {
    Path folder = folders.safeFolder(id);
    lock.lock();
    try {
      if (closed) {
        return;
      }
      Optional<Trace> stored = repository.find(id);
      if (folder == null || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
        forget(id, stored);
        return;
      }
      FolderSnapshot snapshot = folders.snapshot(id, folder);
      long now = System.nanoTime();
      Tracked t = tracked.get(id);
      boolean changed = false;
      if (t == null) {
        // A folder Cascade wrote whole itself has been quiet as long as it needs to be.
        t = new Tracked(snapshot, WrittenWhole.take(folder) ? now - quietNanos : now);
        tracked.put(id, t);
        changed = stored.isPresent() && TraceLifecycle.changedWhileDown(stored.get(), snapshot);
      } else if (!t.snapshot.equals(snapshot)) {
        t.snapshot = snapshot;
        t.changedAt = now;
        changed = true;
      }
      if (!TraceLifecycle.needsDecision(processing.contains(id), stored, snapshot)) {
        return;
      }
      Look look =
          new Look(
              id,
              stored,
              snapshot,
              TraceMetadata.read(folder),
              changed,
              now - t.changedAt,
              clock.instant());
      carryOut(id, folder, stored, t, lifecycle.decide(look));
    } finally {
      lock.unlock();
    }
  }

  private void carryOut(
      String id, Path folder, Optional<Trace> stored, Tracked t, Decision decision) {
    Optional<Trace> previous = stored;
    for (Trace next : decision.saves()) {
      save(previous, next);
      previous = Optional.of(next);
    }
    if (decision.checkInNanos() >= 0) {
      t.check = watch.checkLater(id, decision.checkInNanos(), t.check);
    }
    if (decision.process().isPresent()) {
      startProcessing(id, folder, previous, decision.process().get());
    }
  }

  private void forget(String id, Optional<Trace> stored) {
    Tracked t = tracked.remove(id);
    if (t != null) {
      TraceWatch.cancel(t.check);
    }
    if (stored.isPresent()) {
      log.info("trace \"{}\" is gone from the traces folder; forgetting it", id);
      repository.delete(id);
    }
  }

  // ---------------------------------------------------------------- processing

  private void startProcessing(
      String id, Path folder, Optional<Trace> stored, Trace processingTrace) {
    if (!processing.add(id)) {
      return;
    }
    try {
      save(stored, processingTrace);
      processors.execute(() -> process(id, folder));
    } catch (RejectedExecutionException e) {
      processing.remove(id); // closing: the next start processes it
    } catch (RuntimeException e) {
      processing.remove(id); // the next evaluation tries again
      throw e;
    }
  }

  private void process(String id, Path folder) {
    boolean recorded = false;
    try {
      Facts facts = null;
      String reason = null;
      try {
        log.info("processing trace \"{}\"", id);
        facts = processor.process(folder);
      } catch (TraceProcessingException e) {
        reason = e.getMessage();
      } catch (RuntimeException e) {
        log.warn("processing trace \"{}\" failed unexpectedly", id, e);
        reason = "processing failed unexpectedly: " + e;
      }
      if (closed || Thread.currentThread().isInterrupted()) {
        return; // stays processing in the database: the next start processes it again
      }
      finishProcessing(id, folder, facts, reason);
      recorded = true;
    } catch (RuntimeException e) {
      log.warn("recording the outcome of processing trace \"{}\" failed", id, e);
    } finally {
      if (!recorded) {
        processing.remove(id);
      }
    }
  }

  private void finishProcessing(String id, Path folder, Facts facts, String reason) {
    lock.lock();
    try {
      processing.remove(id);
      if (closed) {
        return;
      }
      Optional<Trace> stored = repository.find(id);
      if (stored.isEmpty() || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
        forget(id, stored);
        return;
      }
      // What processing left is the new baseline: only later changes reopen the trace.
      FolderSnapshot snapshot = folders.snapshot(id, folder);
      Tracked t = tracked.computeIfAbsent(id, key -> new Tracked(snapshot, System.nanoTime()));
      t.snapshot = snapshot;
      t.changedAt = System.nanoTime();
      TraceMetadata metadata = TraceLifecycle.metadataOrNone(TraceMetadata.read(folder));
      Trace next =
          TraceLifecycle.afterProcessing(
              id, stored, metadata, snapshot, facts, reason, clock.instant());
      if (next.state() == TraceState.FAILED) {
        log.info("trace \"{}\" failed: {}", id, next.reason());
      } else {
        log.info("trace \"{}\" is ready: {}", id, TraceLifecycle.kernels(next.kernelCount()));
      }
      save(stored, next);
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- storing

  /**
   * Saves {@code next} unless it says nothing new; tells listeners when the state or reason
   * changed, or the trace is new.
   */
  private void save(Optional<Trace> stored, Trace next) {
    Trace previous = stored.orElse(null);
    if (previous != null && TraceLifecycle.sameFacts(previous, next)) {
      return;
    }
    if (previous != null
        && next.state() == TraceState.UPLOADING
        && (previous.state() == TraceState.READY || previous.state() == TraceState.FAILED)) {
      log.info(
          "trace \"{}\" changed after it was {}; checking it again",
          next.id(),
          previous.state().wireName());
    }
    repository.save(next);
    if (previous == null
        || previous.state() != next.state()
        || !Objects.equals(previous.reason(), next.reason())) {
      log.debug("trace \"{}\" is {}", next.id(), next.state().wireName());
      listeners.deliver(next);
    }
  }

  private static Duration requirePositive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive; got " + value);
    }
    return value;
  }
}
