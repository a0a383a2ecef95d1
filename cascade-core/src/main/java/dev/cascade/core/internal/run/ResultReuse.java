package dev.cascade.core.internal.run;

import dev.cascade.core.KernelWindow;
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
 *
 * <p>Per kernel: a sim of a kernel window (a sampled entry's representatives) with no such match
 * takes its kernels from an earlier sim of the whole trace on the same inputs and replica, since a
 * kernel's numbers are keyed by the trace's content hash, the config's hash and the simulator: a
 * sampled run after a full run launches nothing. Its log stays the whole-trace sim's ({@code
 * reused_from}); it keeps none of its own.
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
        continue;
      }
      // Per kernel: a window's kernels taken from a sim of the whole trace on the same inputs.
      var whole = sims.wholeTraceSimFor(connection, sim);
      if (whole.isPresent()) {
        List<Integer> positions = KernelWindow.parse(sim.kernels()).positions();
        if (KernelRepository.copyWindow(connection, whole.get(), sim.id(), positions)
            && sims.reuseKernelsOf(connection, sim, whole.get(), positions.size(), now)) {
          reused.add(sim.id());
        }
      }
    }
    return reused;
  }
}
