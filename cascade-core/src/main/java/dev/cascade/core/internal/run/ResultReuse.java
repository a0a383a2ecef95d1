package dev.cascade.core.internal.run;

import dev.cascade.core.Sim;
import dev.cascade.core.internal.store.ChunkRepository;
import dev.cascade.core.internal.store.KernelRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code "reuse": true}: a new sim whose inputs ({@link dev.cascade.core.Provenance}: trace, config
 * and simulator), replica and kernel window match an earlier succeeded sim takes that sim's results
 * instead of simulating. Its kernels and log are copied, so results, downloads and comparisons read
 * it like any other sim, and it is {@code succeeded} at once with {@code reused_from} set.
 */
final class ResultReuse {

  private final SimRepository sims;

  ResultReuse(SimRepository sims) {
    this.sims = sims;
  }

  /**
   * In the caller's write transaction, after the run's pending sims were inserted: makes each sim
   * that has an earlier match reuse it. Returns the ids of the sims that did, not to be launched.
   */
  Set<String> apply(Connection connection, List<Sim> pending, Instant now) throws SQLException {
    Set<String> reused = new HashSet<>();
    for (Sim sim : pending) {
      var earlier = sims.reuseEarlier(connection, sim, now);
      if (earlier.isPresent()) {
        KernelRepository.copy(connection, earlier.get(), sim.id());
        ChunkRepository.copy(connection, earlier.get(), sim.id());
        reused.add(sim.id());
      }
    }
    return reused;
  }
}
