package dev.cascade.core.internal.run;

import java.util.List;
import java.util.Optional;

/** What the run manager needs from the store of sims' output: chunks in, and their end. */
public interface SimOutputs {

  /** Stores chunk {@code seq} of a sim's output once; false when it was already stored. */
  boolean accept(String simId, String runId, long seq, byte[] bytes);

  /** True when chunks 0..produced-1 of the sim are all stored. */
  boolean holdsAll(String simId, long produced);

  /** The chunks below {@code produced} not stored yet, at most a few hundred. */
  List<Long> missing(String simId, long produced);

  /** Parses what is left of the sim's output and records how the log ended. */
  void finish(String simId);

  /** Why the sim's log says it failed ({@code deadlock detected}, ...), when it does. */
  Optional<String> failureInLog(String simId);
}
