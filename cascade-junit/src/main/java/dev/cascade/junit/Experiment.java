package dev.cascade.junit;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.SimState;
import dev.cascade.core.Trace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Runs a trace on GPU configs and waits for the results: what a {@link CascadeExperiment} test gets
 * injected. Immutable and safe to share between tests; {@link #withTimeout} gives a copy.
 *
 * <pre>{@code
 * ExperimentRun run = experiment.run("demo", "SM90_H100:3", "SM90_H200:3");
 * assertThat(run.config("SM90_H200").kernel("flash_fwd").cycles().n()).isEqualTo(3);
 * }</pre>
 */
public final class Experiment {

  private final Backend backend;
  private final Duration timeout;

  Experiment(Backend backend, Duration timeout) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.timeout = requirePositive(timeout);
  }

  /**
   * Runs {@code traceId} on each entry, written {@code CONFIG:COUNT} ({@code "SM90_H100:3"}, three
   * replicas) or {@code CONFIG} (one), waits for every sim to finish, and returns the results.
   *
   * @throws IllegalArgumentException for an entry that is not {@code CONFIG[:COUNT]}, or a count
   *     outside 1 to 64
   * @see #run(String, List)
   */
  public ExperimentRun run(String traceId, String... entries) {
    return run(traceId, entries(entries));
  }

  /**
   * Runs {@code traceId} on {@code entries}, waits for every sim to finish, and returns the
   * results. First waits, up to {@link #timeout()}, for the trace to be ready.
   *
   * @throws CascadeException as Cascade refuses the run: {@code not_found} for an unknown trace;
   *     {@code conflict} for a trace that failed, is a sample, or is still not ready after the
   *     timeout; {@code invalid} for an unknown GPU config or one of another architecture (field
   *     {@code entries[i].gpu_config}), a duplicated config or a bad count
   * @throws ExperimentException when the run does not finish within {@link #timeout()} (it is then
   *     cancelled), or finishes with sims that failed or were cancelled
   */
  public ExperimentRun run(String traceId, List<RunEntry> entries) {
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(entries, "entries");
    String runId = null;
    try {
      requireReady(traceId);
      runId = backend.create(traceId, entries);
      Backend.RunStatus status = backend.await(runId, timeout);
      if (status.state() == RunState.ACTIVE) {
        backend.cancel(runId);
        throw new ExperimentException(
            ErrorCode.UNAVAILABLE,
            "run "
                + runId
                + " of trace \""
                + traceId
                + "\" did not finish within "
                + human(timeout)
                + " and was cancelled; raise timeoutSeconds in @CascadeExperiment or use"
                + " withTimeout(). Its sims then:"
                + sims(status.sims()),
            null);
      }
      ExperimentRun run = finished(status);
      if (status.state() != RunState.SUCCEEDED) {
        long bad = status.sims().stream().filter(sim -> sim.state() != SimState.SUCCEEDED).count();
        throw new ExperimentException(
            ErrorCode.CONFLICT,
            "run "
                + runId
                + " of trace \""
                + traceId
                + "\" ended "
                + status.state().wireName()
                + ": "
                + bad
                + " of "
                + status.sims().size()
                + " sims did not succeed:"
                + sims(
                    status.sims().stream().filter(s -> s.state() != SimState.SUCCEEDED).toList()),
            run);
      }
      return run;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (runId != null) {
        backend.cancel(runId);
      }
      throw new ExperimentException(
          ErrorCode.UNAVAILABLE,
          "interrupted while waiting for "
              + (runId == null ? "trace \"" + traceId + "\"" : "run " + runId + " (cancelled)"),
          null);
    }
  }

  /** This experiment, waiting up to {@code timeout} for traces and runs. */
  public Experiment withTimeout(Duration timeout) {
    return new Experiment(backend, timeout);
  }

  /** How long {@link #run} waits for the trace to be ready, and then for the run to finish. */
  public Duration timeout() {
    return timeout;
  }

  /** Where runs go, for messages: {@code the embedded Cascade in /tmp/...}. */
  String backendDescription() {
    return backend.describe();
  }

  @Override
  public String toString() {
    return "Experiment on " + backend.describe() + ", timeout " + human(timeout);
  }

  // ---------------------------------------------------------------------------------------------

  /** Parses {@code CONFIG[:COUNT]} entries. */
  static List<RunEntry> entries(String... specs) {
    Objects.requireNonNull(specs, "entries");
    if (specs.length == 0) {
      throw new IllegalArgumentException(
          "give at least one GPU config to run on, such as \"SM90_H100:3\"");
    }
    List<RunEntry> entries = new ArrayList<>();
    for (String spec : Arrays.asList(specs)) {
      entries.add(entry(spec));
    }
    return List.copyOf(entries);
  }

  private static RunEntry entry(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException(
          "a run entry must be CONFIG or CONFIG:COUNT, such as \"SM90_H100:3\"; got \""
              + spec
              + "\"");
    }
    String text = spec.strip();
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      return new RunEntry(text, 1);
    }
    String count = text.substring(colon + 1).strip();
    if (colon == 0 || count.isEmpty() || !count.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException(
          "a run entry must be CONFIG or CONFIG:COUNT, such as \"SM90_H100:3\"; got \""
              + spec
              + "\"");
    }
    int replicas;
    try {
      replicas = Integer.parseInt(count);
    } catch (NumberFormatException e) {
      replicas = Integer.MAX_VALUE;
    }
    return new RunEntry(text.substring(0, colon).strip(), replicas);
  }

  /**
   * Waits up to the timeout for the trace to be ready; an error naming it, its state and what to do
   * when it is not.
   */
  void requireReady(String traceId) throws InterruptedException {
    Trace.requireValidId(traceId);
    Backend.TraceStatus trace =
        backend
            .awaitTrace(traceId, timeout)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "there is no trace \""
                            + traceId
                            + "\" on "
                            + backend.describe()
                            + "; its traces are: "
                            + listOrNone(backend.traceIds())
                            + ". Name it in @CascadeExperiment(traces = ...): \"demo\", or the"
                            + " path of a trace folder",
                        "trace_id"));
    switch (trace.state()) {
      case READY -> {}
      case FAILED ->
          throw new CascadeException(
              ErrorCode.CONFLICT,
              "trace \"" + traceId + "\" failed and cannot be run: " + trace.reason(),
              "trace_id");
      case UPLOADING ->
          throw new CascadeException(
              ErrorCode.CONFLICT,
              "trace \""
                  + traceId
                  + "\" is still uploading after "
                  + human(timeout)
                  + ": its upload is not complete (no metadata.json yet, metadata.json says"
                  + " \"status\": \"running\", or its files keep changing); finish the upload,"
                  + " metadata.json last",
              "trace_id");
      case PROCESSING ->
          throw new CascadeException(
              ErrorCode.CONFLICT,
              "trace \""
                  + traceId
                  + "\" is still processing after "
                  + human(timeout)
                  + "; a large trace takes longer: raise timeoutSeconds in @CascadeExperiment",
              "trace_id");
    }
  }

  private ExperimentRun finished(Backend.RunStatus status) {
    List<ConfigResult> results = backend.results(status.id());
    return new ExperimentRun(
        status.id(),
        status.traceId(),
        status.state(),
        results.stream().map(ConfigResults::of).toList());
  }

  private static String sims(List<Backend.SimStatus> sims) {
    StringBuilder text = new StringBuilder();
    for (Backend.SimStatus sim : sims) {
      text.append("\n  ")
          .append(sim.gpuConfig())
          .append(" replica ")
          .append(sim.replica())
          .append(" (")
          .append(sim.id())
          .append("): ")
          .append(sim.state().wireName())
          .append(", kernels ")
          .append(sim.kernelsDone())
          .append('/')
          .append(sim.kernelsTotal());
      if (sim.error() != null && !sim.error().isBlank()) {
        text.append(", ").append(sim.error());
      }
      for (String line : sim.logTail()) {
        text.append("\n    | ").append(line);
      }
    }
    return text.toString();
  }

  private static String listOrNone(List<String> ids) {
    return ids.isEmpty() ? "none" : String.join(", ", ids);
  }

  static String human(Duration duration) {
    return duration.toMillis() % 1000 == 0
        ? duration.toSeconds() + " s"
        : duration.toMillis() + " ms";
  }

  private static Duration requirePositive(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the timeout must be positive; got " + timeout);
    }
    return timeout;
  }
}
