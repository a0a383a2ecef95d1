package dev.cascade.core.internal.output;

import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.LogOutcome;
import dev.cascade.accelsim.stats.StatsListener;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.KernelResult;
import dev.cascade.core.SimEvent;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimParse.FinishedKernel;
import dev.cascade.core.internal.output.SimParse.Progress;
import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.Metrics;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sim's output, from the chunks it sends to what the app shows: the chunks are stored (numbered,
 * idempotent, kept when they come out of order) and, as soon as they are contiguous, fed in order
 * to the sim's {@link KernelStatsParser}; what it finds becomes the sim's progress ({@code
 * kernels_done}, {@code current_kernel}, {@code latest_metrics}, {@code log_outcome}), one {@code
 * sim_kernels} row per finished kernel, and {@code log}, {@code kernel} and {@code sim} events.
 *
 * <p>Each {@link #accept} is one write transaction: the chunk, the kernels it finished, the sim's
 * progress and the events are stored together or not at all, so a crash never leaves a chunk parsed
 * twice or half-reported. Accepts for one sim are serialised (one thread feeds its parser at a
 * time); different sims proceed in parallel up to the database's single writer.
 *
 * <p>A parser lives in memory while its sim runs. After a restart the first chunk to parse rebuilds
 * it by feeding the chunks already parsed again, quietly (their kernels and events are stored).
 * {@link #release} ends the log and drops the parser when the sim finishes.
 *
 * <p>Every chunk of a sim must come through here: the parse follows the chunks this class stores.
 * Do not call it inside a {@link Database#write} (the database refuses nested writes).
 */
public final class SimOutput {

  /** {@link #missing} lists at most this many seqs. */
  public static final int MAX_MISSING = 500;

  /** {@link #logTail} returns at most this many lines. */
  public static final int MAX_TAIL_LINES = 10_000;

  private static final Logger log = LoggerFactory.getLogger(SimOutput.class);

  /** Chunks read at a time when a filled gap releases held chunks. */
  private static final int PAGE_CHUNKS = 64;

  private final Database database;
  private final ChunkRepository chunks;
  private final EventLog events;
  private final SimSnapshot snapshot;
  private final Clock clock;
  private final GpuConfigCatalog catalog;
  private final ConcurrentHashMap<String, SimParse> parses = new ConcurrentHashMap<>();

  /**
   * Output handling without a GPU config catalog: {@code kernel} events then carry no simulated
   * time (results still have it).
   */
  public SimOutput(Database database, EventLog events, SimSnapshot snapshot, Clock clock) {
    this(database, events, snapshot, clock, null);
  }

  /**
   * Output handling whose {@code kernel} events carry {@code simulated_time_us}, from the core
   * clock of the sim's config in {@code catalog} (left out when the catalog does not have it).
   */
  public SimOutput(
      Database database,
      EventLog events,
      SimSnapshot snapshot,
      Clock clock,
      GpuConfigCatalog catalog) {
    this.database = Objects.requireNonNull(database, "database");
    this.events = Objects.requireNonNull(events, "events");
    this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.catalog = catalog;
    this.chunks = new ChunkRepository(database, clock);
  }

  /**
   * Stores chunk {@code seq} of the sim's output unless it is already held, then parses every chunk
   * that is now contiguous with the ones parsed, in order, and stores what they said, all in one
   * transaction. A chunk after a gap is kept and parsed once the gap fills.
   *
   * @param runId the sim's run (the events are the run's)
   * @param bytes the chunk; not copied, so do not change it afterwards
   * @throws CascadeException {@code not_found} when the sim does not exist
   * @throws IllegalArgumentException when {@code seq} is negative or the sim is not in {@code
   *     runId}
   */
  public ChunkReceipt accept(String simId, String runId, long seq, byte[] bytes) {
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(bytes, "bytes");
    if (seq < 0) {
      throw new IllegalArgumentException(
          "chunk seq counts from 0; got " + seq + " for sim " + simId);
    }
    return withSim(
        simId,
        sim -> {
          if (!sim.runId.equals(runId)) {
            throw new IllegalArgumentException(
                "sim " + simId + " belongs to run " + sim.runId + ", not to run " + runId);
          }
          if (!sim.finished && seq < sim.chunksParsed) {
            return new ChunkReceipt(false, sim.chunksParsed); // held and parsed already
          }
          if (!sim.finished && seq == sim.chunksParsed) {
            ensureParser(sim); // outside the write: a rebuild may read a long log
          }
          return write(sim, connection -> acceptIn(connection, sim, seq, bytes));
        });
  }

  /**
   * Ends the sim's log: parses a last line without a newline, closes an open statistics block, and
   * stores the outcome ({@code incomplete} when no exit, limit or failure line was seen). Chunks
   * after a gap are not parsed, so call it once {@link #holdsAll} is true. Later chunks are still
   * stored but no longer parsed. Calling it again only returns the outcome. The parser's memory is
   * freed; {@link #release} also forgets the sim.
   *
   * @return how the log ended
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public LogOutcome finish(String simId) {
    Objects.requireNonNull(simId, "simId");
    return withSim(simId, this::finishIn);
  }

  /**
   * {@link #finish Finishes} the sim's log, if not done yet, and forgets the sim: call it once the
   * sim is in a finished state, whichever way it got there (final heartbeat, cancel, no heartbeat,
   * failed launch), or its entry stays in memory. A chunk that arrives later is stored, not parsed.
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public void release(String simId) {
    Objects.requireNonNull(simId, "simId");
    withSim(
        simId,
        sim -> {
          finishIn(sim);
          discard(sim);
          return null;
        });
  }

  /**
   * Why the sim's log says the simulation failed ({@code ERROR ** deadlock detected}, {@code
   * unsupported binary version: 5}), as far as it has been parsed; empty when it does not. A
   * failure found before the sim's parser was released or the app restarted is read from the log
   * again (the database keeps only that it failed).
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public Optional<String> failureInLog(String simId) {
    Objects.requireNonNull(simId, "simId");
    SimParse sim = parses.get(simId);
    if (sim != null) {
      sim.lock.lock();
      try {
        if (!sim.dead && (sim.parser != null || sim.finalOutcome != null)) {
          LogOutcome outcome = sim.outcome();
          return outcome.failed() ? Optional.of(outcome.reason()) : Optional.empty();
        }
      } finally {
        sim.lock.unlock();
      }
    }
    String stored =
        database.read(
            connection -> {
              try (PreparedStatement select =
                  connection.prepareStatement("SELECT log_outcome FROM sims WHERE id = ?")) {
                select.setString(1, simId);
                try (ResultSet row = select.executeQuery()) {
                  if (!row.next()) {
                    throw notFound(simId);
                  }
                  return row.getString(1);
                }
              }
            });
    if (!LogOutcome.State.FAILED.label().equals(stored)) {
      return Optional.empty();
    }
    try (InputStream in = chunks.openLog(simId)) {
      LogOutcome outcome = KernelStatsParser.parse(in, new StatsListener() {});
      return Optional.of(outcome.failed() ? outcome.reason() : "the log reports a failure");
    } catch (IOException e) {
      throw new UncheckedIOException(e); // chunks are read from the database, not a file
    }
  }

  /**
   * The seqs below {@code produced} that are not held, lowest first, at most {@link #MAX_MISSING}:
   * what a sim that says it produced {@code produced} chunks must send again.
   */
  public List<Long> missing(String simId, long produced) {
    return chunks.missing(simId, produced, MAX_MISSING);
  }

  /** True when chunks 0 to {@code produced - 1} are all held: a final heartbeat may be applied. */
  public boolean holdsAll(String simId, long produced) {
    if (produced < 0) {
      throw new IllegalArgumentException("chunk count cannot be negative; got " + produced);
    }
    return produced == 0 || chunks.contiguousCount(simId) >= produced;
  }

  /**
   * The last {@code lines} lines of the sim's log as held (chunks in seq order), decoded as UTF-8
   * (malformed bytes become U+FFFD); a last line without a newline counts.
   *
   * @param lines 0 to {@link #MAX_TAIL_LINES}
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public List<String> logTail(String simId, int lines) {
    Objects.requireNonNull(simId, "simId");
    if (lines < 0 || lines > MAX_TAIL_LINES) {
      throw new IllegalArgumentException(
          "a log tail has 0 to " + MAX_TAIL_LINES + " lines; got " + lines);
    }
    requireSim(simId);
    return LogTail.read(chunks, simId, lines);
  }

  /**
   * The sim's whole log as held so far: its chunks' bytes in seq order, streamed a page at a time.
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public InputStream log(String simId) {
    Objects.requireNonNull(simId, "simId");
    requireSim(simId);
    return chunks.openLog(simId);
  }

  /**
   * The kernels the sim has finished, with their statistics, in log order.
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public List<KernelResult> kernels(String simId) {
    Objects.requireNonNull(simId, "simId");
    return database.read(
        connection -> {
          requireSim(connection, simId);
          return SimKernels.read(connection, simId);
        });
  }

  // ---------------------------------------------------------------------------------------------

  /** Runs {@code work} holding the sim's lock, with its row loaded. */
  private <T> T withSim(String simId, Function<SimParse, T> work) {
    while (true) {
      SimParse sim = parses.computeIfAbsent(simId, SimParse::new);
      sim.lock.lock();
      try {
        if (sim.dead) {
          continue; // released or failed while we waited: look it up again
        }
        if (!sim.loaded) {
          try {
            load(sim);
          } catch (RuntimeException e) {
            discard(sim);
            throw e;
          }
        }
        return work.apply(sim);
      } finally {
        sim.lock.unlock();
      }
    }
  }

  private void discard(SimParse sim) {
    sim.dead = true;
    parses.remove(sim.simId, sim);
  }

  /** Runs a write for the sim; when it fails, the sim's in-memory parse is dropped with it. */
  private <T> T write(SimParse sim, Database.Work<T> work) {
    T result;
    try {
      result = database.write(work);
    } catch (RuntimeException e) {
      discard(sim);
      throw e;
    }
    events.committed();
    return result;
  }

  private void load(SimParse sim) {
    String gpuConfig =
        database.read(
            connection -> {
              try (PreparedStatement select =
                  connection.prepareStatement(
                      "SELECT run_id, gpu_config, state, chunks_parsed, kernels_done,"
                          + " current_kernel, latest_metrics, log_outcome FROM sims WHERE id = ?")) {
                select.setString(1, sim.simId);
                try (ResultSet row = select.executeQuery()) {
                  if (!row.next()) {
                    throw notFound(sim.simId);
                  }
                  sim.runId = row.getString(1);
                  SimState state = SimState.fromWireName(row.getString(3));
                  sim.chunksParsed = row.getLong(4);
                  sim.kernelsDone = row.getInt(5);
                  sim.currentKernel = row.getString(6);
                  sim.latestMetrics = row.getString(7);
                  sim.logOutcome = row.getString(8);
                  // A finished sim whose log was ended: its parse is over for good.
                  sim.finished = state.isFinished() && sim.logOutcome != null;
                  sim.held = sim.chunksParsed;
                  return row.getString(2);
                }
              }
            });
    sim.clockMhz = clockMhz(gpuConfig);
    sim.loaded = true;
  }

  /** The config's core clock, or null when there is no catalog or it does not know the config. */
  private Double clockMhz(String gpuConfig) {
    if (catalog == null) {
      return null;
    }
    try {
      return catalog
          .find(gpuConfig)
          .map(GpuConfig::clockMhz)
          .filter(clock -> clock > 0 && Double.isFinite(clock))
          .orElse(null);
    } catch (RuntimeException e) {
      log.debug("no clock for GPU config {}: {}", gpuConfig, e.getMessage());
      return null;
    }
  }

  /**
   * Builds the sim's parser; after a restart, by feeding it the chunks already parsed again, with
   * what it finds there suppressed (their kernels, progress and events are stored already).
   */
  private void ensureParser(SimParse sim) {
    if (sim.parser != null) {
      return;
    }
    sim.parser = new KernelStatsParser(sim);
    if (sim.chunksParsed == 0) {
      return;
    }
    sim.rebuilding = true;
    try {
      long expected = 0;
      Iterator<Chunk> stored = chunks.stream(sim.simId, 0).iterator();
      while (expected < sim.chunksParsed) {
        if (!stored.hasNext()) {
          throw new IllegalStateException(
              "sim "
                  + sim.simId
                  + " has parsed "
                  + sim.chunksParsed
                  + " chunks but holds "
                  + expected);
        }
        Chunk chunk = stored.next();
        if (chunk.seq() != expected) {
          throw new IllegalStateException(
              "sim "
                  + sim.simId
                  + " has parsed "
                  + sim.chunksParsed
                  + " chunks but lacks "
                  + expected);
        }
        sim.feed(chunk.bytes());
        expected++;
      }
      sim.lines.drain(); // printed before the restart: their events are stored
    } catch (RuntimeException e) {
      discard(sim);
      throw e;
    } finally {
      sim.rebuilding = false;
    }
    if (sim.kernelsSeen != sim.kernelsDone) {
      log.warn(
          "sim {}: re-parsing its {} chunks found {} kernels, but {} are stored; new kernels"
              + " continue at position {}",
          sim.simId,
          sim.chunksParsed,
          sim.kernelsSeen,
          sim.kernelsDone,
          sim.kernelsSeen);
    }
  }

  private ChunkReceipt acceptIn(Connection connection, SimParse sim, long seq, byte[] bytes)
      throws SQLException {
    boolean stored = chunks.insert(connection, new Chunk(sim.simId, seq, bytes));
    if (sim.finished) {
      sim.held = contiguousFrom(connection, sim.simId, sim.held);
      return new ChunkReceipt(stored, sim.held);
    }
    if (!stored || seq != sim.chunksParsed) {
      return new ChunkReceipt(stored, sim.chunksParsed); // after a gap: kept for later
    }
    Progress before = sim.progress();
    sim.feed(bytes);
    long next = seq + 1;
    // The chunk may fill a gap: parse the chunks held after it, up to the next gap.
    page:
    while (true) {
      List<Chunk> held = chunks.read(connection, sim.simId, next, PAGE_CHUNKS);
      if (held.isEmpty()) {
        break;
      }
      for (Chunk chunk : held) {
        if (chunk.seq() != next) {
          break page;
        }
        sim.feed(chunk.bytes());
        next++;
      }
    }
    sim.chunksParsed = next;
    store(connection, sim, before);
    return new ChunkReceipt(true, next);
  }

  private LogOutcome finishIn(SimParse sim) {
    if (sim.finished) {
      return sim.outcome();
    }
    ensureParser(sim);
    Progress before = sim.progress();
    LogOutcome outcome = sim.parser.finish();
    sim.lines.finish();
    sim.logOutcome = outcome.state().label();
    sim.finished = true;
    sim.finalOutcome = outcome;
    sim.parser = null; // its memory is no longer needed
    sim.held = sim.chunksParsed;
    write(
        sim,
        connection -> {
          store(connection, sim, before);
          return null;
        });
    return outcome;
  }

  /**
   * Stores what the parse found since the last write, in the caller's transaction: a {@code log}
   * event with the new lines, each finished kernel with a {@code kernel} event, the sim's progress,
   * and a {@code sim} event when the progress changed.
   */
  private void store(Connection connection, SimParse sim, Progress before) throws SQLException {
    Instant at = clock.instant();
    long ended = sim.lines.ended();
    List<String> lines = sim.lines.drain();
    if (!lines.isEmpty()) {
      events.append(
          connection,
          sim.runId,
          sim.simId,
          SimEvent.Kind.LOG,
          at,
          EventJson.log(lines, ended - lines.size()));
    }
    for (FinishedKernel kernel : sim.takeFinished()) {
      if (SimKernels.insert(connection, sim.simId, kernel.position(), kernel.stats())) {
        events.append(
            connection,
            sim.runId,
            sim.simId,
            SimEvent.Kind.KERNEL,
            at,
            EventJson.kernel(kernel.position(), kernel.stats(), sim.clockMhz));
      }
      sim.kernelsDone = Math.max(sim.kernelsDone, kernel.position() + 1);
      sim.latestMetrics = Metrics.toJson(SimParse.headline(kernel.stats()));
    }
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE sims SET chunks_parsed = ?, kernels_done = ?, current_kernel = ?,"
                + " latest_metrics = ?, log_outcome = ? WHERE id = ?")) {
      update.setLong(1, sim.chunksParsed);
      update.setInt(2, sim.kernelsDone);
      update.setString(3, sim.currentKernel);
      update.setString(4, sim.latestMetrics);
      update.setString(5, sim.logOutcome);
      update.setString(6, sim.simId);
      if (update.executeUpdate() != 1) {
        throw notFound(sim.simId);
      }
    }
    if (!before.equals(sim.progress())) {
      events.append(
          connection,
          sim.runId,
          sim.simId,
          SimEvent.Kind.SIM,
          at,
          snapshot.json(connection, sim.simId));
    }
  }

  /** How many chunks are held without a gap, knowing that chunks 0 to {@code from - 1} are. */
  private long contiguousFrom(Connection connection, String simId, long from) throws SQLException {
    long next = from;
    while (true) {
      List<Chunk> held = chunks.read(connection, simId, next, PAGE_CHUNKS);
      if (held.isEmpty()) {
        return next;
      }
      for (Chunk chunk : held) {
        if (chunk.seq() != next) {
          return next;
        }
        next++;
      }
    }
  }

  private void requireSim(String simId) {
    database.read(
        connection -> {
          requireSim(connection, simId);
          return null;
        });
  }

  private static void requireSim(Connection connection, String simId) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("SELECT 1 FROM sims WHERE id = ?")) {
      select.setString(1, simId);
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          throw notFound(simId);
        }
      }
    }
  }

  private static CascadeException notFound(String simId) {
    return new CascadeException(
        ErrorCode.NOT_FOUND,
        "sim \"" + simId + "\" does not exist; sim ids come from the run that created them",
        "sim_id");
  }
}
