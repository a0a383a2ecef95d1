package dev.cascade.junit;

import dev.cascade.core.ConfigResult;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.SimState;
import dev.cascade.core.TraceState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The Cascade an {@link Experiment} talks to: an embedded one ({@link EmbeddedBackend}) or a
 * running server over HTTP ({@link RemoteBackend}). Errors are core's {@link
 * dev.cascade.core.CascadeException}s, with the server's code, message and field.
 */
interface Backend {

  /** Where the experiment runs, for messages: {@code an embedded Cascade in /tmp/...}. */
  String describe();

  /** The trace with this id as it is now; empty when there is none. */
  Optional<TraceStatus> trace(String id);

  /**
   * Waits up to {@code timeout} for the trace to leave {@code uploading} and {@code processing},
   * and returns it as it is then; empty when there is no such trace.
   */
  Optional<TraceStatus> awaitTrace(String id, Duration timeout) throws InterruptedException;

  /** The ids of every trace, for messages. */
  List<String> traceIds();

  /** Creates the run and returns its id. */
  String create(String traceId, List<RunEntry> entries);

  /** Waits up to {@code timeout} for every sim of the run to finish; the run as it is then. */
  RunStatus await(String runId, Duration timeout) throws InterruptedException;

  /** The run's results, per config, in the run's order. */
  List<ConfigResult> results(String runId);

  /** Cancels the run's unfinished sims. */
  void cancel(String runId);

  /** A trace's state and why it failed, if it did. */
  record TraceStatus(String id, TraceState state, String reason, boolean sample) {}

  /** A run's derived state and its sims. */
  record RunStatus(String id, String traceId, RunState state, List<SimStatus> sims) {
    public RunStatus {
      sims = List.copyOf(sims);
    }
  }

  /**
   * One sim, for messages.
   *
   * @param logTail the last lines of its output; empty when not known
   */
  record SimStatus(
      String id,
      String gpuConfig,
      int replica,
      SimState state,
      String error,
      int kernelsDone,
      int kernelsTotal,
      List<String> logTail) {
    public SimStatus {
      logTail = List.copyOf(logTail);
    }
  }
}
