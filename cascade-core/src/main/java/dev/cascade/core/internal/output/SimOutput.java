package dev.cascade.core.internal.output;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.KernelResult;
import dev.cascade.core.Simulators;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.ChunkRepository.Encoded;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.spi.LogEnd;
import dev.cascade.core.spi.OutputListener;
import dev.cascade.core.spi.OutputParser;
import dev.cascade.core.spi.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A sim's output, from the chunks it sends to what the app shows: the chunks are stored (numbered,
 * idempotent, kept when they come out of order: {@link ChunkIntake}) and, as soon as they are
 * contiguous, fed in order to the sim's parser, its {@link Simulator}'s ({@link ParserLifecycle});
 * what it finds becomes the sim's progress ({@code kernels_done}, {@code current_kernel}, {@code
 * latest_metrics}, {@code log_outcome}), one {@code sim_kernels} row per finished kernel, and
 * {@code log}, {@code kernel} and {@code sim} events ({@link ParseRecorder}).
 *
 * <p>Each {@link #accept} is one write transaction: the chunk, the kernels it finished, the sim's
 * progress and the events are stored together or not at all, so a crash never leaves a chunk parsed
 * twice or half-reported. Accepts for one sim are serialised (one thread feeds its parser at a
 * time); different sims proceed in parallel up to the database's single writer.
 *
 * <p>A parser lives in memory while its sim runs. After a restart the first chunk to parse rebuilds
 * it by feeding the chunks already parsed again, quietly ({@link ParseRebuild}). {@link #release}
 * ends the log and drops the parser when the sim finishes.
 *
 * <p>Every chunk of a sim must come through here: the parse follows the chunks this class stores.
 * Do not call it inside a {@link Database#write} (the database refuses nested writes).
 */
public final class SimOutput {

  /** {@link #missing} lists at most this many seqs. */
  public static final int MAX_MISSING = 500;

  /** {@link #logTail} returns at most this many lines. */
  public static final int MAX_TAIL_LINES = 10_000;

  private final Database database;
  private final ChunkRepository chunks;
  private final SimRepository sims;
  private final KernelRepository kernels;
  private final ChunkIntake intake;
  private final ParserLifecycle parsers;
  private final Simulator simulator;
  private final boolean compress;
  private final Clock clock;

  /**
   * Output handling without a GPU config catalog: {@code kernel} events then carry no simulated
   * time (results still have it).
   */
  public SimOutput(Database database, EventLog events, Clock clock) {
    this(database, events, clock, null);
  }

  /**
   * Output handling whose {@code kernel} events carry {@code simulated_time_us}, from the core
   * clock of the sim's config in {@code catalog} (left out when the catalog does not have it).
   */
  public SimOutput(Database database, EventLog events, Clock clock, GpuConfigCatalog catalog) {
    this(database, events, clock, catalog, Simulators.accelSim());
  }

  /**
   * As {@link #SimOutput(Database, EventLog, Clock, GpuConfigCatalog)}, read by {@code simulator}.
   */
  public SimOutput(
      Database database,
      EventLog events,
      Clock clock,
      GpuConfigCatalog catalog,
      Simulator simulator) {
    this(database, events, clock, catalog, simulator, true);
  }

  /**
   * As {@link #SimOutput(Database, EventLog, Clock, GpuConfigCatalog, Simulator)}; {@code compress}
   * false stores new chunks as they came instead of zstd-compressed.
   */
  public SimOutput(
      Database database,
      EventLog events,
      Clock clock,
      GpuConfigCatalog catalog,
      Simulator simulator,
      boolean compress) {
    this.compress = compress;
    this.simulator = Objects.requireNonNull(simulator, "simulator");
    this.database = Objects.requireNonNull(database, "database");
    Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.chunks = new ChunkRepository(database, clock);
    this.sims = new SimRepository(database, clock);
    this.kernels = new KernelRepository(database);
    this.intake = new ChunkIntake(chunks);
    this.parsers =
        new ParserLifecycle(
            database,
            sims,
            kernels,
            events,
            catalog,
            intake,
            new ParseRebuild(chunks),
            new ParseRecorder(sims, kernels, events, clock),
            simulator);
  }

  /**
   * Stores chunk {@code seq} of the sim's output unless it is already held, then parses every chunk
   * that is now contiguous with the ones parsed, in order, and stores what they said, all in one
   * transaction. A chunk after a gap is kept and parsed once the gap fills.
   *
   * @param runId the sim's run (the events are the run's)
   * @param bytes the chunk; not copied, so do not change it afterwards
   * @throws CascadeException {@code not_found} when the sim does not exist, {@code conflict} for a
   *     new chunk of a sim whose log has ended
   * @throws IllegalArgumentException when {@code seq} is negative or the sim is not in {@code
   *     runId}
   */
  public ChunkReceipt accept(String simId, String runId, long seq, byte[] bytes) {
    return accept(simId, Objects.requireNonNull(runId, "runId"), seq, bytes, null, true);
  }

  /**
   * {@link #accept(String, String, long, byte[])} for the sim's own run: no read of its row when
   * its parse is in memory already (a sim's every chunk comes here).
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public ChunkReceipt accept(String simId, long seq, byte[] bytes) {
    return accept(simId, null, seq, bytes, null, false);
  }

  /**
   * {@link #accept(String, long, byte[])} of a chunk whose last bytes the sim's agent read at
   * {@code readAt}: the kernels it finishes are timed by that, not by its arrival (a chunk spooled
   * while the app was away arrives late). Null times them by arrival.
   */
  public ChunkReceipt accept(String simId, long seq, byte[] bytes, Instant readAt) {
    return accept(simId, null, seq, bytes, readAt, false);
  }

  private ChunkReceipt accept(
      String simId, String runId, long seq, byte[] bytes, Instant readAt, boolean checkRun) {
    Objects.requireNonNull(simId, "simId");
    Objects.requireNonNull(bytes, "bytes");
    if (seq < 0) {
      throw new IllegalArgumentException(
          "chunk seq counts from 0; got " + seq + " for sim " + simId);
    }
    // Compressed before the sim's lock and the writer's turn, which then only insert.
    Encoded encoded = compress ? Encoded.of(bytes) : Encoded.uncompressed(bytes);
    return parsers.withSim(
        simId,
        sim -> {
          if (checkRun && !sim.runId.equals(runId)) {
            throw new IllegalArgumentException(
                "sim " + simId + " belongs to run " + sim.runId + ", not to run " + runId);
          }
          if (sim.finished) {
            return refuseAfterEnd(sim, seq, bytes);
          }
          if (seq < sim.chunksParsed) {
            // Held and parsed already: the same bytes again, or refused.
            database.read(
                connection -> {
                  intake.requireSameAsHeld(connection, simId, seq, bytes);
                  return null;
                });
            return new ChunkReceipt(false, sim.chunksParsed);
          }
          if (seq == sim.chunksParsed) {
            parsers.ensureParser(sim); // outside the write: a rebuild may read a long log
            if (sim.highestHeld < seq) {
              ChunkReceipt receipt =
                  parsers.feedThenStore(sim, seq, encoded, readAt, clock.instant());
              return receipt != null ? receipt : accept(simId, runId, seq, bytes, readAt, checkRun);
            }
          }
          return parsers.write(
              sim,
              connection -> {
                boolean stored = intake.store(connection, simId, seq, encoded, readAt);
                if (stored) {
                  sim.highestHeld = Math.max(sim.highestHeld, seq);
                } else {
                  intake.requireSameAsHeld(connection, simId, seq, bytes);
                }
                if (!stored || seq != sim.chunksParsed) {
                  return new ChunkReceipt(stored, sim.chunksParsed); // after a gap: kept for later
                }
                Instant bytesReadAt = readAt != null ? readAt : clock.instant();
                return new ChunkReceipt(
                    true, parsers.feedContiguous(connection, sim, bytes, bytesReadAt));
              });
        });
  }

  /**
   * A chunk for a sim whose log has ended: one sent again with its bytes is answered as held; a new
   * one is refused, because it could no longer be parsed and the log would say more than its
   * kernels, progress and outcome.
   */
  private ChunkReceipt refuseAfterEnd(SimParse sim, long seq, byte[] bytes) {
    boolean held =
        database.read(
            connection -> {
              if (!intake.holds(connection, sim.simId, seq)) {
                return false;
              }
              intake.requireSameAsHeld(connection, sim.simId, seq, bytes);
              return true;
            });
    if (held) {
      return new ChunkReceipt(false, sim.held);
    }
    throw new CascadeException(
        ErrorCode.CONFLICT,
        "sim "
            + sim.simId
            + " has finished and its log is closed: chunk "
            + seq
            + ", sent after its end, is not kept",
        "seq");
  }

  /**
   * Ends the sim's log: parses a last line without a newline, closes an open statistics block, and
   * stores the outcome ({@code incomplete} when no exit, limit or failure line was seen). Chunks
   * after a gap are not parsed, so call it once {@link #holdsAll} is true. Later new chunks are
   * refused ({@code conflict}). Calling it again only returns the outcome. The parser's memory is
   * freed; {@link #release} also forgets the sim.
   *
   * @return how the log ended
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public LogEnd finish(String simId) {
    Objects.requireNonNull(simId, "simId");
    return parsers.withSim(simId, parsers::finish);
  }

  /**
   * {@link #finish Finishes} the sim's log, if not done yet, and forgets the sim: call it once the
   * sim is in a finished state, whichever way it got there (final heartbeat, cancel, no heartbeat,
   * failed launch), or its entry stays in memory. A new chunk that arrives later is refused.
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public void release(String simId) {
    Objects.requireNonNull(simId, "simId");
    parsers.withSim(
        simId,
        sim -> {
          parsers.finish(sim);
          parsers.discard(sim);
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
    SimParse sim = parsers.inMemory(simId);
    if (sim != null) {
      sim.lock.lock();
      try {
        if (!sim.dead && (sim.parser != null || sim.finalOutcome != null)) {
          LogEnd outcome = sim.outcome();
          return outcome.failed() ? Optional.of(outcome.reason()) : Optional.empty();
        }
      } finally {
        sim.lock.unlock();
      }
    }
    Optional<String> stored = sims.logOutcome(simId);
    if (!stored.equals(Optional.of(LogEnd.State.FAILED.label()))) {
      return Optional.empty();
    }
    try (InputStream in = chunks.openLog(simId)) {
      OutputParser parser = simulator.parser(new OutputListener() {});
      byte[] buffer = new byte[64 * 1024];
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        parser.feed(buffer, 0, read);
      }
      LogEnd outcome = parser.finish();
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
    sims.requireExists(simId);
    return LogTail.read(chunks, simId, lines);
  }

  /**
   * The sim's whole log as held so far: its chunks' bytes in seq order, streamed a page at a time.
   *
   * @throws CascadeException {@code not_found} when the sim does not exist
   */
  public InputStream log(String simId) {
    Objects.requireNonNull(simId, "simId");
    sims.requireExists(simId);
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
          SimRepository.requireExists(connection, simId);
          return kernels.read(connection, simId);
        });
  }
}
