package dev.cascade.core.internal.trace;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.TraceRepository;
import dev.cascade.core.internal.trace.TraceProcessor.Facts;
import dev.cascade.core.internal.trace.TraceProcessor.TraceProcessingException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides every trace's state from its folder (DESIGN.md section 5) and keeps it in the {@code
 * traces} table; the engine behind {@code TraceStore}.
 *
 * <p>A trace is {@code uploading} from its first file; {@code processing} once {@code
 * metadata.json} exists, does not say {@code "status": "running"} or {@code "failed"}, and nothing
 * under the trace (temporary upload files and s3proxy's multipart parts included) changed for the
 * quiet period; {@code ready} when processing leaves a {@code traces/kernelslist.g}; {@code failed}
 * when metadata says so, when metadata is still not valid JSON after the quiet period, or when
 * processing fails, with the reason kept. A trace that is ready or failed and whose files change
 * again goes back to {@code uploading} (unless metadata still says failed), so a fixed re-upload is
 * processed again.
 *
 * <p>Threads: a watcher thread turns file events into evaluations; one scanner thread runs
 * evaluations, quiet-period checks and the periodic rescan; a small pool processes traces, so a
 * long post-processing run never holds up detection, and a trace is never processed twice at once;
 * one thread delivers state changes to listeners, in order. All are daemon threads, stopped by
 * {@link #close}. Decisions are made under one lock; processing runs outside it.
 */
public final class TraceEngine implements AutoCloseable {

  /** The S3 bucket uploads arrive in, under {@code $CASCADE_DATA_DIR/s3/}. */
  public static final String BUCKET = "cascade";

  /** The key prefix, and folder in the bucket, that holds one folder per trace. */
  public static final String PREFIX = "accelsim-traces";

  static final String KERNELSLIST_G = "traces/kernelslist.g";

  private static final Logger log = LoggerFactory.getLogger(TraceEngine.class);
  private static final int PROCESSING_THREADS = 2;
  private static final long CHECK_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final Path tracesFolder;
  private final Path bucketFolder;
  private final TraceRepository repository;
  private final Clock clock;
  private final long quietNanos;
  private final Duration rescanInterval;
  private final TraceProcessor processor;
  private final int instance = INSTANCES.incrementAndGet();

  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private final Map<String, Tracked> tracked = new HashMap<>();
  private final Set<String> processing = ConcurrentHashMap.newKeySet();
  private final Set<String> evaluationRequested = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean rescanRequested = new AtomicBoolean();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private final List<Consumer<Trace>> listeners = new CopyOnWriteArrayList<>();

  private final ScheduledThreadPoolExecutor scanner;
  private final ExecutorService processors;
  private final ExecutorService events;
  private volatile FolderWatcher watcher;
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
        new AccelSimProcessor());
  }

  TraceEngine(
      Path tracesFolder,
      Database database,
      Clock clock,
      Duration quietPeriod,
      Duration rescanInterval,
      TraceProcessor processor) {
    this.tracesFolder = tracesFolder.toAbsolutePath().normalize();
    this.bucketFolder = this.tracesFolder.getParent();
    this.repository = new TraceRepository(Objects.requireNonNull(database, "database"));
    this.clock = Objects.requireNonNull(clock, "clock");
    this.quietNanos = requirePositive("quietPeriod", quietPeriod).toNanos();
    this.rescanInterval = requirePositive("rescanInterval", rescanInterval);
    this.processor = Objects.requireNonNull(processor, "processor");
    this.scanner = new ScheduledThreadPoolExecutor(1, threads("cascade-trace-scanner-" + instance));
    scanner.setRemoveOnCancelPolicy(true);
    this.processors =
        Executors.newFixedThreadPool(
            PROCESSING_THREADS, threads("cascade-trace-processor-" + instance));
    this.events = Executors.newSingleThreadExecutor(threads("cascade-trace-events-" + instance));
  }

  /** {@code $dataDir/s3/cascade/accelsim-traces}, absolute. */
  public static Path tracesFolder(Path dataDir) {
    return dataDir.toAbsolutePath().normalize().resolve("s3").resolve(BUCKET).resolve(PREFIX);
  }

  public Path tracesFolder() {
    return tracesFolder;
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
        Files.createDirectories(tracesFolder);
      } catch (IOException e) {
        throw new CascadeException(
            ErrorCode.UNAVAILABLE,
            "cannot create the traces folder \""
                + tracesFolder
                + "\": "
                + e
                + "; check CASCADE_DATA_DIR and its permissions",
            null,
            e);
      }
      try {
        FolderWatcher folderWatcher =
            new FolderWatcher(
                tracesFolder.toRealPath(),
                this::requestEvaluation,
                this::requestRescan,
                "cascade-trace-watcher-" + instance);
        folderWatcher.start();
        watcher = folderWatcher;
      } catch (IOException | RuntimeException e) {
        log.warn(
            "cannot watch the traces folder \"{}\" ({}); relying on the rescan every {}",
            tracesFolder,
            e.toString(),
            rescanInterval);
      }
      scanner.scheduleWithFixedDelay(
          () -> guarded("rescan", this::scanAll),
          0,
          rescanInterval.toNanos(),
          TimeUnit.NANOSECONDS);
    } finally {
      lock.unlock();
    }
  }

  /** Every trace, oldest first. */
  public List<Trace> list() {
    return repository.list();
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
    if (!Trace.isValidId(id)) {
      String message;
      try {
        Trace.requireValidId(id);
        message = "trace id \"" + id + "\" is not valid";
      } catch (IllegalArgumentException e) {
        message = e.getMessage();
      }
      throw new CascadeException(ErrorCode.BAD_REQUEST, message, "id");
    }
    Path folder = tracesFolder.resolve(id).normalize();
    if (!tracesFolder.equals(folder.getParent())) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST,
          "trace id \"" + id + "\" does not name a folder directly inside the traces folder",
          "id");
    }
    if (Files.isSymbolicLink(folder)) {
      requireLinkInside(id, folder);
    }
    return folder;
  }

  private void requireLinkInside(String id, Path folder) {
    Path target;
    Path root;
    try {
      target = folder.toRealPath();
      root = tracesFolder.toRealPath();
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "trace folder \""
              + folder
              + "\" is a symbolic link that leads nowhere ("
              + e
              + "); remove it or upload the trace as plain files",
          "id");
    }
    if (!target.startsWith(root) || target.equals(root)) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "trace folder \""
              + folder
              + "\" is a symbolic link to \""
              + target
              + "\", outside the traces folder \""
              + root
              + "\"; Cascade never reads a trace from outside it: remove the link and upload"
              + " the trace instead",
          "id");
    }
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
    listeners.add(Objects.requireNonNull(listener, "listener"));
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
      tracked.values().forEach(t -> cancel(t.check));
    } finally {
      lock.unlock();
    }
    FolderWatcher folderWatcher = watcher;
    if (folderWatcher != null) {
      folderWatcher.close();
    }
    scanner.shutdownNow();
    processors.shutdownNow();
    events.shutdown();
    awaitTermination(scanner, "scanner");
    awaitTermination(processors, "processor");
    awaitTermination(events, "listener");
  }

  // ---------------------------------------------------------------- scanning

  private void scanAll() {
    if (closed) {
      return;
    }
    rescanRequested.set(false);
    Set<String> seen = new HashSet<>();
    if (Files.isDirectory(tracesFolder)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(tracesFolder)) {
        for (Path entry : entries) {
          String name = entry.getFileName().toString();
          if (name.startsWith(".")) {
            continue; // upload bookkeeping (such as .mpus- trees), never a trace
          }
          if (Files.isSymbolicLink(entry)) {
            // Never followed: one leading outside is refused loudly, any other skipped.
            if (safeFolder(name) != null && warned.add(name)) {
              log.warn(
                  "skipping \"{}\" in the traces folder: it is a symbolic link; upload traces as"
                      + " plain folders",
                  name);
            }
            continue;
          }
          if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) || safeFolder(name) == null) {
            continue; // a plain file beside the trace folders is not a trace
          }
          seen.add(name);
          guarded("evaluating trace \"" + name + "\"", () -> evaluate(name));
        }
      } catch (IOException e) {
        log.warn("cannot list the traces folder \"{}\": {}", tracesFolder, e.toString());
        return;
      }
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
      guarded("evaluating trace \"" + id + "\"", () -> evaluate(id));
    }
  }

  private void requestEvaluation(String id) {
    if (closed || !evaluationRequested.add(id)) {
      return;
    }
    try {
      scanner.execute(
          () -> {
            evaluationRequested.remove(id);
            guarded("evaluating trace \"" + id + "\"", () -> evaluate(id));
          });
    } catch (RejectedExecutionException e) {
      evaluationRequested.remove(id);
    }
  }

  private void requestRescan() {
    if (closed || !rescanRequested.compareAndSet(false, true)) {
      return;
    }
    try {
      scanner.execute(() -> guarded("rescan", this::scanAll));
    } catch (RejectedExecutionException e) {
      rescanRequested.set(false);
    }
  }

  /** The folder of {@code id} when it is a safe trace folder; null (warned once) otherwise. */
  private Path safeFolder(String id) {
    try {
      return folderOf(id);
    } catch (CascadeException e) {
      if (warned.add(id)) {
        log.warn("skipping \"{}\" in the traces folder: {}", id, e.getMessage());
      }
      return null;
    }
  }

  // ---------------------------------------------------------------- deciding

  /** Looks at one trace folder and moves the trace to the state its files call for. */
  private void evaluate(String id) {
    // Hidden folders are upload bookkeeping (s3proxy's .mpus- trees), never traces.
    Path folder = id.startsWith(".") ? null : safeFolder(id);
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
      FolderSnapshot snapshot = snapshot(id, folder);
      long now = System.nanoTime();
      Tracked t = tracked.get(id);
      boolean changed = false;
      if (t == null) {
        t = new Tracked(snapshot, now);
        tracked.put(id, t);
        changed = stored.isPresent() && changedWhileDown(stored.get(), snapshot);
      } else if (!t.snapshot.equals(snapshot)) {
        t.snapshot = snapshot;
        t.changedAt = now;
        changed = true;
      }
      if (processing.contains(id)) {
        return; // decided when processing ends
      }
      if (stored.isEmpty() && !snapshot.hasContent()) {
        return; // only temporary files so far: no trace yet
      }
      TraceMetadata.Read read = TraceMetadata.read(folder);
      TraceState state = stored.map(Trace::state).orElse(TraceState.UPLOADING);
      switch (state) {
        case UPLOADING -> decideUpload(id, folder, stored, snapshot, read, t, now);
        case PROCESSING -> startProcessing(id, folder, stored, metadataOrNone(read), snapshot);
        case READY, FAILED -> {
          if (changed) {
            reopen(id, folder, stored.orElseThrow(), snapshot, read, t, now);
          }
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * On the first look after a start: true when a ready or failed trace's files no longer match what
   * was recorded (their size on disk differs, or a ready trace lost its kernelslist.g), so files
   * changed while Cascade was down.
   */
  private static boolean changedWhileDown(Trace stored, FolderSnapshot snapshot) {
    return switch (stored.state()) {
      case READY -> stored.sizeBytes() != snapshot.sizeBytes() || !snapshot.contains(KERNELSLIST_G);
      case FAILED -> stored.sizeBytes() != snapshot.sizeBytes();
      case UPLOADING, PROCESSING -> false;
    };
  }

  private void decideUpload(
      String id,
      Path folder,
      Optional<Trace> stored,
      FolderSnapshot snapshot,
      TraceMetadata.Read read,
      Tracked t,
      long now) {
    TraceMetadata metadata = metadataOrNone(read);
    if (read instanceof TraceMetadata.Parsed parsed && parsed.metadata().saysFailed()) {
      save(stored, failed(id, stored, metadata, snapshot, metadata.failureReason()));
      return;
    }
    boolean complete =
        read instanceof TraceMetadata.Invalid
            || (read instanceof TraceMetadata.Parsed parsed && !parsed.metadata().saysRunning());
    if (!complete) {
      // No metadata yet, or the profiler is still running: wait for the next change.
      save(stored, uploading(id, stored, metadata, snapshot));
      return;
    }
    long quietFor = now - t.changedAt;
    if (quietFor < quietNanos) {
      save(stored, uploading(id, stored, metadata, snapshot));
      scheduleCheck(id, t, quietNanos - quietFor);
      return;
    }
    if (read instanceof TraceMetadata.Invalid invalid) {
      save(stored, failed(id, stored, metadata, snapshot, invalid.reason()));
      return;
    }
    startProcessing(id, folder, stored, metadata, snapshot);
  }

  /**
   * A ready or failed trace whose files changed: back to uploading, unless metadata says failed.
   */
  private void reopen(
      String id,
      Path folder,
      Trace trace,
      FolderSnapshot snapshot,
      TraceMetadata.Read read,
      Tracked t,
      long now) {
    Optional<Trace> stored = Optional.of(trace);
    if (read instanceof TraceMetadata.Parsed parsed && parsed.metadata().saysFailed()) {
      save(
          stored,
          failed(id, stored, parsed.metadata(), snapshot, parsed.metadata().failureReason()));
      return;
    }
    log.info(
        "trace \"{}\" changed after it was {}; checking it again", id, trace.state().wireName());
    Trace uploading = uploading(id, stored, metadataOrNone(read), snapshot);
    save(stored, uploading);
    decideUpload(id, folder, Optional.of(uploading), snapshot, read, t, now);
  }

  private void forget(String id, Optional<Trace> stored) {
    Tracked t = tracked.remove(id);
    if (t != null) {
      cancel(t.check);
    }
    if (stored.isPresent()) {
      log.info("trace \"{}\" is gone from the traces folder; forgetting it", id);
      repository.delete(id);
    }
  }

  private void scheduleCheck(String id, Tracked t, long delayNanos) {
    cancel(t.check);
    try {
      t.check =
          scanner.schedule(
              () -> guarded("checking trace \"" + id + "\"", () -> evaluate(id)),
              Math.max(delayNanos, 0) + CHECK_MARGIN_NANOS,
              TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      t.check = null; // closing
    }
  }

  // ---------------------------------------------------------------- processing

  private void startProcessing(
      String id,
      Path folder,
      Optional<Trace> stored,
      TraceMetadata metadata,
      FolderSnapshot snapshot) {
    if (!processing.add(id)) {
      return;
    }
    try {
      save(stored, processing(id, stored, metadata, snapshot));
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
      FolderSnapshot snapshot = snapshot(id, folder);
      Tracked t = tracked.computeIfAbsent(id, key -> new Tracked(snapshot, System.nanoTime()));
      t.snapshot = snapshot;
      t.changedAt = System.nanoTime();
      TraceMetadata metadata = metadataOrNone(TraceMetadata.read(folder));
      if (reason == null && !snapshot.contains(KERNELSLIST_G)) {
        reason =
            KERNELSLIST_G
                + " is missing after processing; upload it, or a raw traces/kernelslist to"
                + " post-process";
      }
      if (reason != null) {
        log.info("trace \"{}\" failed: {}", id, reason);
        save(stored, failed(id, stored, metadata, snapshot, reason));
      } else {
        log.info("trace \"{}\" is ready: {} kernels", id, facts.kernelCount());
        save(stored, ready(id, stored, metadata, snapshot, facts));
      }
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- records

  private Trace uploading(
      String id, Optional<Trace> stored, TraceMetadata metadata, FolderSnapshot snapshot) {
    return trace(id, TraceState.UPLOADING, null, stored, metadata, snapshot, 0, List.of());
  }

  private Trace processing(
      String id, Optional<Trace> stored, TraceMetadata metadata, FolderSnapshot snapshot) {
    return trace(id, TraceState.PROCESSING, null, stored, metadata, snapshot, 0, List.of());
  }

  private Trace ready(
      String id,
      Optional<Trace> stored,
      TraceMetadata metadata,
      FolderSnapshot snapshot,
      Facts facts) {
    return trace(
        id,
        TraceState.READY,
        null,
        stored,
        metadata,
        snapshot,
        facts.kernelCount(),
        facts.kernels());
  }

  private Trace failed(
      String id,
      Optional<Trace> stored,
      TraceMetadata metadata,
      FolderSnapshot snapshot,
      String reason) {
    return trace(id, TraceState.FAILED, reason, stored, metadata, snapshot, 0, List.of());
  }

  private Trace trace(
      String id,
      TraceState state,
      String reason,
      Optional<Trace> stored,
      TraceMetadata metadata,
      FolderSnapshot snapshot,
      int kernelCount,
      List<TraceKernel> kernels) {
    Instant now = clock.instant();
    return new Trace(
        id,
        state,
        reason,
        metadata.traceGpuArch(),
        metadata.suggestedSimConfig(),
        metadata.modelName(),
        metadata.tracedLayers(),
        kernelCount,
        kernels,
        snapshot.sizeBytes(),
        metadata.sample(),
        stored.map(Trace::createdAt).orElse(now),
        now);
  }

  /**
   * Saves {@code next} unless it says nothing new; tells listeners when the state or reason
   * changed, or the trace is new.
   */
  private void save(Optional<Trace> stored, Trace next) {
    Trace previous = stored.orElse(null);
    if (previous != null && sameFacts(previous, next)) {
      return;
    }
    repository.save(next);
    if (previous == null
        || previous.state() != next.state()
        || !Objects.equals(previous.reason(), next.reason())) {
      log.debug("trace \"{}\" is {}", next.id(), next.state().wireName());
      notifyListeners(next);
    }
  }

  /** True when the two differ at most in {@code updatedAt}. */
  private static boolean sameFacts(Trace a, Trace b) {
    return a.state() == b.state()
        && Objects.equals(a.reason(), b.reason())
        && a.traceGpuArch().equals(b.traceGpuArch())
        && Objects.equals(a.suggestedSimConfig(), b.suggestedSimConfig())
        && Objects.equals(a.modelName(), b.modelName())
        && a.tracedLayers().equals(b.tracedLayers())
        && a.kernelCount() == b.kernelCount()
        && a.kernels().equals(b.kernels())
        && a.sizeBytes() == b.sizeBytes()
        && a.sample() == b.sample()
        && a.createdAt().equals(b.createdAt());
  }

  private void notifyListeners(Trace trace) {
    if (listeners.isEmpty()) {
      return;
    }
    try {
      events.execute(
          () -> {
            for (Consumer<Trace> listener : listeners) {
              try {
                listener.accept(trace);
              } catch (RuntimeException e) {
                log.warn("a trace listener failed on trace \"{}\"", trace.id(), e);
              }
            }
          });
    } catch (RejectedExecutionException e) {
      log.debug("closing: trace \"{}\" change not delivered", trace.id());
    }
  }

  // ---------------------------------------------------------------- helpers

  private FolderSnapshot snapshot(String id, Path folder) {
    return FolderSnapshot.take(folder, multipartTrees(id));
  }

  /**
   * s3proxy keeps a multipart upload's parts at the bucket root, in {@code .mpus-<upload
   * id>-accelsim-traces/<trace id>/...}: parts still arriving there mean the trace's upload is
   * still under way.
   */
  private List<Path> multipartTrees(String id) {
    List<Path> trees = new ArrayList<>();
    if (bucketFolder == null || !Files.isDirectory(bucketFolder)) {
      return trees;
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(
            bucketFolder,
            entry -> UploadFiles.isMultipartTreeName(entry.getFileName().toString(), PREFIX))) {
      for (Path entry : entries) {
        Path tree = entry.resolve(id);
        if (Files.isDirectory(tree, LinkOption.NOFOLLOW_LINKS)) {
          trees.add(tree);
        }
      }
    } catch (IOException e) {
      log.debug("cannot list \"{}\": {}", bucketFolder, e.toString());
    }
    return trees;
  }

  private static TraceMetadata metadataOrNone(TraceMetadata.Read read) {
    return read instanceof TraceMetadata.Parsed parsed ? parsed.metadata() : TraceMetadata.none();
  }

  private void guarded(String what, Runnable work) {
    try {
      work.run();
    } catch (RuntimeException e) {
      if (!closed) {
        log.warn("trace store: {} failed; the next rescan retries", what, e);
      }
    }
  }

  private static void cancel(ScheduledFuture<?> future) {
    if (future != null) {
      future.cancel(false);
    }
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return work -> {
      Thread thread = new Thread(work, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  private static void awaitTermination(ExecutorService executor, String what) {
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        log.warn("the trace store's {} thread did not stop within 10 s", what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
