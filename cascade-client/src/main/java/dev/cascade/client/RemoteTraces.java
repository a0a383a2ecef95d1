package dev.cascade.client;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import dev.cascade.core.SkippedFolder;
import dev.cascade.core.Trace;
import dev.cascade.core.Traces;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.SamplingJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** {@code GET /api/traces} and {@code GET /api/traces/{id}}; waiting polls the latter. */
final class RemoteTraces implements Traces {

  private static final Duration FIRST_POLL = Duration.ofMillis(200);
  private static final Duration LONGEST_POLL = Duration.ofSeconds(1);

  private final Http http;

  RemoteTraces(Http http) {
    this.http = http;
  }

  @Override
  public List<Trace> list() {
    return http.get("/api/traces", ApiJson::readTraceList);
  }

  @Override
  public List<SkippedFolder> skippedFolders() {
    return http.get("/api/traces", ApiJson::readSkippedFolders);
  }

  @Override
  public Optional<Trace> find(String id) {
    if (!Trace.isValidId(id)) {
      return Optional.empty();
    }
    try {
      return Optional.of(http.get("/api/traces/" + Http.segment(id), ApiJson::readTrace));
    } catch (CascadeException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** {@code GET /api/traces/{id}/sampling} with the request's target error, budget and method. */
  @Override
  public SamplingPlan sampling(String traceId, Sampling request) {
    requireValidId(traceId);
    String query =
        "?target_error="
            + request.targetError()
            + "&method="
            + request.method()
            + (request.budget() == null ? "" : "&budget=" + request.budget());
    return http.get(
        "/api/traces/" + Http.segment(traceId) + "/sampling" + query, SamplingJson::readPlan);
  }

  @Override
  public Trace get(String id) {
    requireValidId(id);
    return http.get("/api/traces/" + Http.segment(id), ApiJson::readTrace);
  }

  /** Polls, from every 200 ms up to every second, until the trace is settled or the time is up. */
  @Override
  public Trace await(String id, Duration timeout) throws InterruptedException {
    requireValidId(id);
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = FIRST_POLL;
    while (true) {
      Optional<Trace> trace = find(id);
      if (trace.isPresent() && trace.get().state().isSettled()) {
        return trace.get();
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return trace.orElseThrow(
            () ->
                new CascadeException(
                    ErrorCode.NOT_FOUND,
                    "there is no trace \""
                        + id
                        + "\" on Cascade at "
                        + http.baseUrl()
                        + " after waiting "
                        + timeout.toSeconds()
                        + " s; upload it with cascade traces push",
                    "trace_id"));
      }
      // Polling a remote server: nothing in this JVM to wait on.
      Thread.sleep(Duration.ofNanos(Math.min(left, pause.toNanos())));
      pause =
          pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
    }
  }

  @Override
  public Path folderOf(String id) {
    throw new UnsupportedOperationException(
        "the traces of Cascade at "
            + http.baseUrl()
            + " are in folders on its own machine, not this one; upload a trace to it with"
            + " cascade traces push DIR --id "
            + id);
  }

  private static void requireValidId(String id) {
    if (!Trace.isValidId(id)) {
      throw Trace.invalidId(id);
    }
  }
}
