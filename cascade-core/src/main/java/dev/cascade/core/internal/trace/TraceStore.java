package dev.cascade.core.internal.trace;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.SkippedFolder;
import dev.cascade.core.Trace;
import dev.cascade.core.Traces;
import dev.cascade.core.internal.sampling.TraceSampling;
import dev.cascade.core.internal.store.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The traces Cascade knows, decided from the folder uploads land in: {@code
 * $CASCADE_DATA_DIR/s3/cascade/accelsim-traces/<trace id>/}, holding {@code metadata.json} and
 * {@code traces/}.
 *
 * <p>A trace is {@code uploading} from its first file; {@code processing} once {@code
 * metadata.json} exists, does not say {@code "status": "running"} or {@code "failed"}, and no file
 * under the trace changed for the quiet period ({@code CASCADE_UPLOAD_QUIET_S}, 10 s by default);
 * {@code ready} when {@code traces/kernelslist.g} exists (processing runs the post-processor on a
 * raw {@code traces/kernelslist} first); {@code failed} when metadata says so or processing failed,
 * with the reason. S3 servers' temporary files (s3proxy's {@code <key>-<uuid>} and {@code .mpus-}
 * parts, rclone's {@code .partial} files, hidden files) are never taken for trace files. The store
 * watches the folder and rescans it periodically, so nothing is missed, after a restart either;
 * states are kept in the database.
 *
 * <pre>{@code
 * try (TraceStore traces = TraceStore.builder().dataDir(dataDir).database(database).build()) {
 *   traces.addListener(trace -> System.out.println(trace.id() + " is " + trace.state()));
 *   traces.start();
 *   ...
 * }
 * }</pre>
 */
public final class TraceStore implements Traces, AutoCloseable {

  public static final Duration DEFAULT_QUIET_PERIOD = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RESCAN_INTERVAL = Duration.ofSeconds(2);

  private final TraceEngine engine;
  private final TraceSampling sampling;

  private TraceStore(TraceEngine engine) {
    this.engine = engine;
    this.sampling = new TraceSampling(this::find, this::folderOf);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts watching and scanning the traces folder (creating it when absent); returns this. */
  public TraceStore start() {
    engine.start();
    return this;
  }

  /** Every trace, oldest first. */
  public List<Trace> list() {
    return engine.list();
  }

  @Override
  public List<SkippedFolder> skippedFolders() {
    return engine.skippedFolders();
  }

  /** The trace with this id; empty when there is none (or the id is not a valid trace id). */
  public Optional<Trace> find(String id) {
    return engine.find(id);
  }

  /**
   * The trace with this id.
   *
   * @throws CascadeException {@code NOT_FOUND} when there is none; {@code BAD_REQUEST} when the id
   *     is not a valid trace id
   */
  public Trace get(String id) {
    folderOf(id); // rejects invalid ids with their rule
    return find(id)
        .orElseThrow(
            () ->
                new CascadeException(
                    ErrorCode.NOT_FOUND,
                    "no trace \""
                        + id
                        + "\": nothing was uploaded to "
                        + tracesFolder().resolve(id)
                        + "; upload the trace there (bucket \""
                        + TraceEngine.BUCKET
                        + "\", key prefix \""
                        + TraceEngine.PREFIX
                        + "/"
                        + id
                        + "/\") or pick one from the trace list",
                    "trace_id"));
  }

  @Override
  public Trace await(String id, Duration timeout) throws InterruptedException {
    folderOf(id); // rejects invalid ids with their rule
    BlockingQueue<Trace> changes = new LinkedBlockingQueue<>();
    Consumer<Trace> listener =
        trace -> {
          if (trace.id().equals(id)) {
            changes.offer(trace);
          }
        };
    long deadline = System.nanoTime() + timeout.toNanos();
    addListener(listener);
    try {
      rescan(); // a folder written just now is seen at once
      while (true) {
        Optional<Trace> trace = find(id);
        if (trace.isPresent() && trace.get().state().isSettled()) {
          return trace.get();
        }
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return trace.orElseGet(() -> get(id));
        }
        changes.poll(Math.min(remaining, Duration.ofSeconds(1).toNanos()), TimeUnit.NANOSECONDS);
      }
    } finally {
      removeListener(listener);
    }
  }

  /** The traces folder of {@code dataDir}: {@code <dataDir>/s3/cascade/accelsim-traces}. */
  public static Path tracesFolder(Path dataDir) {
    return TraceEngine.tracesFolder(dataDir);
  }

  /** {@code $CASCADE_DATA_DIR/s3/cascade/accelsim-traces}, absolute. */
  public Path tracesFolder() {
    return engine.tracesFolder();
  }

  @Override
  public dev.cascade.core.SamplingPlan sampling(String traceId, dev.cascade.core.Sampling request) {
    if (!Trace.isValidId(traceId)) {
      throw Trace.invalidId(traceId);
    }
    return sampling.plan(traceId, request);
  }

  /**
   * The folder of trace {@code id}, which may not exist yet; always directly inside {@link
   * #tracesFolder()}.
   *
   * @throws CascadeException {@code BAD_REQUEST} when {@code id} is not a valid trace id ({@code
   *     [A-Za-z0-9._-]{1,200}}, not {@code .} or {@code ..}); {@code FORBIDDEN} when the folder is
   *     a symbolic link leading outside the traces folder
   */
  public Path folderOf(String id) {
    return engine.folderOf(id);
  }

  /** Looks at every trace folder now, on the calling thread (the store also does this itself). */
  public void rescan() {
    engine.rescan();
  }

  /**
   * Calls {@code listener} with the trace each time a trace is first seen or changes state (or its
   * failure reason), in order, on the store's event thread. Keep it quick.
   */
  public void addListener(Consumer<Trace> listener) {
    engine.addListener(listener);
  }

  public void removeListener(Consumer<Trace> listener) {
    engine.removeListener(listener);
  }

  /**
   * Stops watching, scanning and processing, and waits for the store's threads to end. A trace
   * interrupted while processing is processed again at the next start. The database stays open.
   */
  @Override
  public void close() {
    engine.close();
  }

  /** Builds a {@link TraceStore}; {@code dataDir} and {@code database} are required. */
  public static final class Builder {
    private Path dataDir;
    private Database database;
    private Clock clock = Clock.systemUTC();
    private Duration quietPeriod = DEFAULT_QUIET_PERIOD;
    private Duration rescanInterval = DEFAULT_RESCAN_INTERVAL;

    private Builder() {}

    /** {@code $CASCADE_DATA_DIR}; traces live in its {@code s3/cascade/accelsim-traces}. */
    public Builder dataDir(Path dataDir) {
      this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
      return this;
    }

    /** Where trace states are kept across restarts. */
    public Builder database(Database database) {
      this.database = Objects.requireNonNull(database, "database");
      return this;
    }

    /** The clock for created and updated times; the system clock by default. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How long no file may change before an upload counts as complete; 10 s by default. */
    public Builder quietPeriod(Duration quietPeriod) {
      this.quietPeriod = requirePositive("quietPeriod", quietPeriod);
      return this;
    }

    /** How often the whole folder is rescanned besides watching it; 2 s by default. */
    public Builder rescanInterval(Duration rescanInterval) {
      this.rescanInterval = requirePositive("rescanInterval", rescanInterval);
      return this;
    }

    /** The store, not started yet: call {@link TraceStore#start()}. */
    public TraceStore build() {
      if (dataDir == null) {
        throw new IllegalStateException("TraceStore.builder(): dataDir is required");
      }
      if (database == null) {
        throw new IllegalStateException("TraceStore.builder(): database is required");
      }
      return new TraceStore(new TraceEngine(dataDir, database, clock, quietPeriod, rescanInterval));
    }

    private static Duration requirePositive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive; got " + value);
      }
      return value;
    }
  }
}
