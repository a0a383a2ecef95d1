package dev.cascade.core.internal.output;

import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimParse.Progress;
import dev.cascade.core.internal.store.ChunkRepository.Encoded;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.ParseState;
import dev.cascade.core.internal.store.SimRepository;
import dev.cascade.core.spi.LogEnd;
import dev.cascade.core.spi.Simulator;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A parser per running sim: each sim's {@link SimParse} is loaded from its {@code sims} row the
 * first time it is needed, gets its parser at the first chunk to parse (rebuilt by {@link
 * ParseRebuild} after a restart), is fed contiguous chunks in order, and is dropped when its log
 * ends or a write for it fails. One thread at a time works on a sim: {@link #withSim} holds its
 * lock.
 */
final class ParserLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ParserLifecycle.class);

  private final Database database;
  private final SimRepository sims;
  private final KernelRepository kernels;
  private final EventLog events;
  private final GpuConfigCatalog catalog;
  private final ChunkIntake intake;
  private final ParseRebuild rebuild;
  private final ParseRecorder recorder;
  private final ConcurrentHashMap<String, SimParse> parses = new ConcurrentHashMap<>();

  private final Simulator simulator;

  ParserLifecycle(
      Database database,
      SimRepository sims,
      KernelRepository kernels,
      EventLog events,
      GpuConfigCatalog catalog,
      ChunkIntake intake,
      ParseRebuild rebuild,
      ParseRecorder recorder,
      Simulator simulator) {
    this.simulator = simulator;
    this.database = database;
    this.sims = sims;
    this.kernels = kernels;
    this.events = events;
    this.catalog = catalog;
    this.intake = intake;
    this.rebuild = rebuild;
    this.recorder = recorder;
  }

  /** Runs {@code work} holding the sim's lock, with its row loaded. */
  <T> T withSim(String simId, Function<SimParse, T> work) {
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

  /** The sim's parse when one is in memory, else null; the caller must take its lock. */
  SimParse inMemory(String simId) {
    return parses.get(simId);
  }

  /** Forgets the sim: whoever waits for its lock looks it up again. */
  void discard(SimParse sim) {
    sim.dead = true;
    parses.remove(sim.simId, sim);
  }

  /** Runs a write for the sim; when it fails, the sim's in-memory parse is dropped with it. */
  <T> T write(SimParse sim, Database.Work<T> work) {
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

  /**
   * Builds the sim's parser unless it has one; after a restart, by replaying the chunks already
   * parsed. Call it outside a write: a rebuild may read a long log.
   */
  void ensureParser(SimParse sim) {
    if (sim.parser != null) {
      return;
    }
    sim.parser = simulator.parser(sim);
    if (sim.chunksParsed == 0) {
      return;
    }
    try {
      rebuild.replay(sim);
    } catch (RuntimeException e) {
      discard(sim);
      throw e;
    }
  }

  /**
   * The common case, a sim's next chunk with no chunk held after it: parsed before the write, under
   * the sim's lock only, so the single writer's turn holds just the inserts. The parse changes the
   * sim before its write commits; when the write fails the sim is dropped, as always.
   *
   * @return the receipt; null when the chunk was held after all (the sim is dropped: load it again)
   */
  ChunkReceipt feedThenStore(SimParse sim, long seq, Encoded chunk, Instant readAt, Instant now) {
    byte[] bytes = chunk.raw();
    Progress before = sim.progress();
    try {
      sim.feed(bytes, readAt != null ? readAt : now);
    } catch (RuntimeException e) {
      discard(sim);
      throw e;
    }
    sim.chunksParsed = seq + 1;
    sim.highestHeld = seq;
    ParseRecorder.Prepared prepared;
    try {
      prepared = recorder.prepare(sim, before); // the JSON, before the writer's turn
    } catch (RuntimeException e) {
      discard(sim);
      throw e;
    }
    boolean stored =
        write(
            sim,
            connection -> {
              if (!intake.store(connection, sim.simId, seq, chunk, readAt)) {
                return false; // nothing written: the parse above must not count
              }
              recorder.store(connection, sim, prepared);
              return true;
            });
    if (!stored) {
      discard(sim);
      return null;
    }
    return new ChunkReceipt(true, sim.chunksParsed);
  }

  /**
   * Feeds the chunk at {@code sim.chunksParsed}, then every held chunk contiguous with it, and
   * stores what they said, in the caller's write transaction.
   *
   * @return how many chunks are now parsed
   */
  long feedContiguous(Connection connection, SimParse sim, byte[] bytes, Instant bytesReadAt)
      throws SQLException {
    Progress before = sim.progress();
    sim.feed(bytes, bytesReadAt);
    long next = sim.chunksParsed + 1;
    // The chunk may fill a gap: parse the chunks held after it, up to the next gap.
    sim.chunksParsed =
        sim.highestHeld < next
            ? next
            : intake.contiguousFrom(connection, sim.simId, next, sim::feed);
    recorder.store(connection, sim, before);
    return sim.chunksParsed;
  }

  /**
   * Ends the sim's log unless it has ended: closes the parse, stores the outcome and frees the
   * parser's memory.
   */
  LogEnd finish(SimParse sim) {
    if (sim.finished) {
      return sim.outcome();
    }
    ensureParser(sim);
    Progress before = sim.progress();
    LogEnd outcome = sim.parser.finish();
    sim.lines.finish();
    sim.logOutcome = outcome.state().label();
    sim.finished = true;
    sim.finalOutcome = outcome;
    sim.parser = null; // its memory is no longer needed
    sim.held = sim.chunksParsed;
    write(
        sim,
        connection -> {
          recorder.store(connection, sim, before);
          return null;
        });
    return outcome;
  }

  private void load(SimParse sim) {
    ParseState state = sims.parseState(sim.simId);
    sim.runId = state.runId();
    sim.chunksParsed = state.progress().chunksParsed();
    sim.kernelsDone = state.progress().kernelsDone();
    sim.currentKernel = state.progress().currentKernel();
    sim.latestMetrics = state.progress().latestMetrics();
    sim.logOutcome = state.progress().logOutcome();
    sim.lastKernelAt =
        sim.kernelsDone == 0
            ? state.launchedAt()
            : kernels.finishedAt(sim.simId, sim.kernelsDone - 1);
    // A finished sim whose log was ended: its parse is over for good.
    sim.finished = state.state().isFinished() && sim.logOutcome != null;
    sim.held = sim.chunksParsed;
    sim.highestHeld = intake.highestHeld(sim.simId);
    sim.clockMhz = clockMhz(state.gpuConfig());
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
}
