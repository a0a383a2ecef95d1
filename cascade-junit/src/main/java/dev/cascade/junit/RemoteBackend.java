package dev.cascade.junit;

import dev.cascade.client.CascadeClient;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.Sim;
import dev.cascade.core.Trace;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An experiment on a running Cascade, through its client ({@link CascadeClient}): creates runs,
 * follows them until they finish and reads their results. Errors the server answers are its {@link
 * CascadeException}s, with its code, message and field, as an embedded Cascade would throw them.
 * Runs it created and that are still going when it closes are cancelled.
 */
final class RemoteBackend implements Backend, AutoCloseable {

  private final CascadeClient client;
  private final Set<String> created = ConcurrentHashMap.newKeySet();

  RemoteBackend(String baseUrl, String token) {
    CascadeClient connected;
    try {
      connected = CascadeClient.connect(URI.create(baseUrl.strip()), token);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "server \""
              + baseUrl
              + "\" is not the URL of a running Cascade; give one such as http://127.0.0.1:8080,"
              + " or leave it empty for an embedded Cascade",
          e);
    }
    this.client = connected;
  }

  /** Fails at once, naming the server, when it cannot be reached or refuses the token. */
  RemoteBackend check() {
    try {
      client.traces().list();
    } catch (CascadeException e) {
      if (e.code() == ErrorCode.UNAVAILABLE) {
        throw new CascadeException(
            ErrorCode.UNAVAILABLE,
            "cannot reach the Cascade at "
                + client.url()
                + " named by @CascadeExperiment(server = ...): "
                + e.getMessage(),
            null,
            e);
      }
      throw e;
    }
    return this;
  }

  @Override
  public String describe() {
    return "the Cascade at " + client.url();
  }

  @Override
  public Optional<TraceStatus> trace(String id) {
    return client.traces().find(id).map(RemoteBackend::status);
  }

  @Override
  public Optional<TraceStatus> awaitTrace(String id, Duration timeout) throws InterruptedException {
    if (client.traces().find(id).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(status(client.traces().await(id, timeout)));
  }

  @Override
  public List<String> traceIds() {
    return client.traces().list().stream().map(Trace::id).toList();
  }

  @Override
  public String create(String traceId, List<RunEntry> entries) {
    String id = client.runs().create(traceId, entries).id();
    created.add(id);
    return id;
  }

  @Override
  public RunStatus await(String runId, Duration timeout) throws InterruptedException {
    Run run = client.runs().await(runId, timeout);
    if (run.state() != RunState.ACTIVE) {
      created.remove(runId);
    }
    List<SimStatus> sims =
        run.sims().stream()
            .map(
                (Sim sim) ->
                    new SimStatus(
                        sim.id(),
                        sim.gpuConfig(),
                        sim.replica(),
                        sim.state(),
                        sim.error(),
                        sim.progress().kernelsDone(),
                        sim.progress().kernelsTotal(),
                        List.of()))
            .toList();
    return new RunStatus(run.id(), run.traceId(), run.state(), sims);
  }

  @Override
  public List<ConfigResult> results(String runId) {
    return client.results().compare(runId);
  }

  @Override
  public void cancel(String runId) {
    client.runs().cancel(runId);
    created.remove(runId);
  }

  /** Cancels the runs this client created that are still going, then closes the client. */
  @Override
  public void close() {
    try {
      for (String runId : List.copyOf(created)) {
        try {
          cancel(runId);
        } catch (RuntimeException e) {
          System.getLogger(RemoteBackend.class.getName())
              .log(
                  System.Logger.Level.WARNING,
                  "cannot cancel run " + runId + " at " + client.url(),
                  e);
        }
      }
    } finally {
      client.close();
    }
  }

  private static TraceStatus status(Trace trace) {
    return new TraceStatus(trace.id(), trace.state(), trace.reason(), trace.sample());
  }
}
