package dev.cascade.core.internal.output;

import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.ChunkRepository.Chunk;
import java.util.Iterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a sim's parser after a restart: the chunks it had already parsed are fed to a new parser
 * again, with what it finds there suppressed, because their kernels, progress and events are stored
 * already. Reads the stored log outside any write transaction: it may be long.
 */
final class ParseRebuild {

  private static final Logger log = LoggerFactory.getLogger(ParseRebuild.class);

  private final ChunkRepository chunks;

  ParseRebuild(ChunkRepository chunks) {
    this.chunks = chunks;
  }

  /**
   * Feeds the sim's parser chunks 0 to {@code chunksParsed - 1} again, quietly.
   *
   * @throws IllegalStateException when one of those chunks is not held
   */
  void replay(SimParse sim) {
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
}
