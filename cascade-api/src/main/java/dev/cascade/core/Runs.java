package dev.cascade.core;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs and their sims: create a run of a trace on GPU configs, follow it, cancel it, and read what
 * its sims printed. The same interface whether Cascade is embedded ({@link Cascade#runs()}) or a
 * server reached over HTTP ({@code CascadeClient.runs()}).
 */
public interface Runs {

  /**
   * Checks the request, writes the run and all its sims as {@code pending}, and launches them in
   * the background.
   *
   * @throws CascadeException {@code not_found} for an unknown trace, {@code conflict} for a trace
   *     not ready or a sample, {@code invalid} for bad entries; each names the field
   */
  default Run create(String traceId, List<RunEntry> entries) {
    return create(traceId, entries, RunOptions.defaults());
  }

  /**
   * {@link #create(String, List)} for an owner and at a priority: the run's sims wait for slots
   * round-robin across owners, and across the runs of one owner, higher priority first.
   */
  Run create(String traceId, List<RunEntry> entries, RunOptions options);

  /**
   * {@link #create(String, List)}; with {@code reuse}, each sim whose provenance (trace, config and
   * simulator hashes), replica and kernel window match an earlier succeeded sim takes that sim's
   * results and log instead of simulating: it is {@code succeeded} at once, with {@link
   * Provenance#reusedFrom()} naming the earlier sim.
   */
  default Run create(String traceId, List<RunEntry> entries, boolean reuse) {
    return create(traceId, entries, RunOptions.defaults().withReuse(reuse));
  }

  /**
   * Launches the failed and cancelled sims of the run again as new attempts ({@link
   * Sim#attempt()}), keeping each earlier attempt with its log and error; the run's state is that
   * of each sim's latest attempt. Returns the run as it is now.
   *
   * @throws CascadeException {@code conflict} when no sim of the run failed or was cancelled
   */
  Run retry(String runId);

  /** A new run of the run's trace with the same entries; returns the new run. */
  Run rerun(String runId);

  /** The run with its sims and derived state; empty when there is none. */
  Optional<Run> find(String runId);

  /** The run, or {@code not_found} naming the id. */
  Run get(String runId);

  /** Every run, newest first. */
  List<Run> list();

  /**
   * One page of runs, newest first, of one trace, state or owner when the query names them; the
   * page's {@link RunPage#nextCursor()} asks for the next.
   *
   * @throws CascadeException {@code bad_request} naming {@code cursor} for a cursor no listing gave
   */
  RunPage list(RunQuery query);

  /**
   * Cancels every unfinished sim of the run and stops it; finished sims keep their results.
   * Cancelling twice is harmless. Returns the run as it is now.
   */
  Run cancel(String runId);

  /**
   * Waits until every sim of the run has finished, or {@code timeout} passes, and returns the run
   * as it is then: check {@link Run#state()}.
   */
  Run await(String runId, Duration timeout) throws InterruptedException;

  /** The run's events after {@code afterId}, past and live, in order; close when done. */
  EventStream events(String runId, long afterId);

  /**
   * Where each unfinished sim of the run stands now, by sim id: its place in the queue for a slot
   * and its estimated finish. Finished sims have none.
   */
  Map<String, SimSchedule> schedule(String runId);

  /** {@link #schedule(String)} of a run just read, which need not be read again. */
  default Map<String, SimSchedule> schedule(Run run) {
    return schedule(run.id());
  }

  /** The sim, or {@code not_found} naming the id. */
  Sim sim(String simId);

  /** The sim's whole output so far. Close the stream when done. */
  InputStream log(String simId);

  /** The last {@code lines} lines of the sim's output. */
  List<String> logTail(String simId, int lines);

  /** The kernels the sim has finished, with their statistics, in log order. */
  List<KernelResult> kernels(String simId);

  /**
   * How fast the simulator ran the run's succeeded sims, per config, next to earlier runs of the
   * same trace and config on each simulator build ({@link RunSpeed}).
   */
  RunSpeed speed(String runId);
}
