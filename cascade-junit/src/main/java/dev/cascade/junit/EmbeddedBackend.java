package dev.cascade.junit;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.Trace;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** An experiment on an embedded {@link Cascade}, through its Java API. */
final class EmbeddedBackend implements Backend {

  private static final int LOG_TAIL_LINES = 10;

  private final Cascade cascade;

  EmbeddedBackend(Cascade cascade) {
    this.cascade = cascade;
  }

  @Override
  public String describe() {
    return "the embedded Cascade in " + cascade.dataDir();
  }

  @Override
  public Optional<TraceStatus> trace(String id) {
    return cascade.traces().find(id).map(EmbeddedBackend::status);
  }

  @Override
  public Optional<TraceStatus> awaitTrace(String id, Duration timeout) throws InterruptedException {
    try {
      return Optional.of(status(cascade.traces().await(id, timeout)));
    } catch (CascadeException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public List<String> traceIds() {
    return cascade.traces().list().stream().map(Trace::id).toList();
  }

  @Override
  public String create(String traceId, List<RunEntry> entries) {
    return cascade.runs().create(traceId, entries).id();
  }

  @Override
  public RunStatus await(String runId, Duration timeout) throws InterruptedException {
    Run run = cascade.runs().await(runId, timeout);
    List<SimStatus> sims =
        run.sims().stream()
            .map(
                sim ->
                    new SimStatus(
                        sim.id(),
                        sim.gpuConfig(),
                        sim.replica(),
                        sim.state(),
                        sim.error(),
                        sim.progress().kernelsDone(),
                        sim.progress().kernelsTotal(),
                        logTail(sim)))
            .toList();
    return new RunStatus(run.id(), run.traceId(), run.state(), sims);
  }

  @Override
  public List<ConfigResult> results(String runId) {
    return cascade.results().compare(runId);
  }

  @Override
  public void cancel(String runId) {
    cascade.runs().cancel(runId);
  }

  private List<String> logTail(Sim sim) {
    if (sim.state() != SimState.FAILED) {
      return List.of();
    }
    return cascade.runs().logTail(sim.id(), LOG_TAIL_LINES);
  }

  private static TraceStatus status(Trace trace) {
    return new TraceStatus(trace.id(), trace.state(), trace.reason(), trace.sample());
  }
}
