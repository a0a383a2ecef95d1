package dev.cascade.client;

import dev.cascade.core.EventStream;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.LogCollection;
import dev.cascade.core.NewUser;
import dev.cascade.core.Results;
import dev.cascade.core.Role;
import dev.cascade.core.RunQuery;
import dev.cascade.core.RunStorage;
import dev.cascade.core.RunSummaryPage;
import dev.cascade.core.Runs;
import dev.cascade.core.TraceUploads;
import dev.cascade.core.Traces;
import dev.cascade.core.User;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.StorageJson;
import dev.cascade.core.json.UploadsJson;
import dev.cascade.core.json.UsersJson;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A client of a running Cascade's HTTP API ({@code docs/api.md}), with the same interfaces an
 * embedded Cascade has: {@link #runs()}, {@link #traces()}, {@link #results()}, and the GPU config
 * catalog ({@link #configs()}).
 *
 * <pre>{@code
 * try (CascadeClient cascade = CascadeClient.connect(URI.create("http://127.0.0.1:8080"), token)) {
 *   Run run = cascade.runs().create("demo", List.of(new RunEntry("SM90_H100", 2)));
 *   run = cascade.runs().await(run.id(), Duration.ofMinutes(10));
 * }
 * }</pre>
 *
 * <p>Errors are the server's own {@link dev.cascade.core.CascadeException}s, with its code, message
 * and field; a server that cannot be reached is {@code unavailable}, with a message naming the URL.
 * Safe for use by several threads.
 */
public final class CascadeClient implements AutoCloseable {

  /** What a followed event stream reports besides its events: drops and reconnections. */
  public interface StreamListener {
    /** The stream is open; {@code resumed} when it was open before and dropped. */
    default void connected(boolean resumed) {}

    /** The stream dropped, for {@code reason}; it reconnects after a pause. */
    default void dropped(String reason) {}

    /** Tells nothing. */
    StreamListener SILENT = new StreamListener() {};
  }

  private final Http http;
  private final RemoteRuns runs;
  private final Traces traces;
  private final Results results;

  private CascadeClient(String baseUrl, String token) {
    this.http = new Http(baseUrl, token);
    this.runs = new RemoteRuns(http);
    this.traces = new RemoteTraces(http);
    this.results = new RemoteResults(http);
  }

  /**
   * A client of the server at {@code url} ({@code http://host:port}, or with the path Cascade is
   * mounted under), sending {@code token} as the user token unless it is null or blank. Nothing is
   * sent until the first call.
   *
   * @throws IllegalArgumentException when {@code url} is not an {@code http://} or {@code https://}
   *     URL with a host
   */
  public static CascadeClient connect(URI url, String token) {
    Objects.requireNonNull(url, "url");
    boolean http =
        "http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme());
    if (!http || url.getHost() == null || url.getQuery() != null || url.getFragment() != null) {
      throw new IllegalArgumentException(
          "\""
              + url
              + "\" is not the URL of a Cascade server; give one such as http://127.0.0.1:8080");
    }
    String text = url.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    return new CascadeClient(text, token == null || token.isBlank() ? null : token.strip());
  }

  /** Where the server is, without a trailing slash: {@code http://127.0.0.1:8080}. */
  public String url() {
    return http.baseUrl();
  }

  /** Runs and their sims on the server. */
  public Runs runs() {
    return runs;
  }

  /**
   * A page of the runs list as the server lists it, in one request: each run's summary (configs,
   * sims by state, kernels), without its sims. {@code runs().list(query)} gives the same runs whole
   * but reads each on its own, one request per run.
   */
  public RunSummaryPage runSummaries(RunQuery query) {
    return runs.summaries(query);
  }

  /**
   * The run with why its queued sims wait ({@link QueuedRun}): what {@code runs().get} gives, plus
   * what only the running server knows.
   */
  public QueuedRun queuedRun(String runId) {
    return http.get("/api/runs/" + Http.segment(runId), QueuedRun::read);
  }

  /** What the run keeps on disk ({@code storage} of {@code GET /api/runs/{id}}). */
  public RunStorage storage(String runId) {
    return http.get(
        "/api/runs/" + Http.segment(runId),
        node -> StorageJson.readRunStorage(node.path("storage")));
  }

  /**
   * Drops the logs (never the results) of finished runs created more than {@code olderThan} ago
   * ({@code 30d}, {@code 12h}, {@code 0}), and the kernel-window folders of finished sims: {@code
   * POST /api/gc}.
   */
  public LogCollection collectLogs(String olderThan) {
    return http.post(
        "/api/gc", java.util.Map.of("older_than", olderThan), StorageJson::readCollection);
  }

  /** The server's traces; their folders are on the server's machine ({@code folderOf} refuses). */
  public Traces traces() {
    return traces;
  }

  /** Runs' results, compared per GPU config. */
  public Results results() {
    return results;
  }

  /** The server's GPU config catalog, usable or not, sorted by name. */
  public List<GpuConfig> configs() {
    return http.get("/api/gpu-configs", ApiJson::readGpuConfigList);
  }

  /**
   * Where the server takes trace uploads ({@code GET /api/uploads}); a {@code not_found} {@link
   * dev.cascade.core.CascadeException} when it takes none.
   */
  public TraceUploads uploads() {
    return http.get("/api/uploads", UploadsJson::read);
  }

  /**
   * The run's events after {@code afterId}, past and live, as {@link Runs#events} gives them, with
   * {@code listener} told when the stream drops and reconnects.
   */
  public EventStream events(String runId, long afterId, StreamListener listener) {
    return new SseEvents(http, runId, afterId, listener == null ? StreamListener.SILENT : listener);
  }

  /** Who this client's token belongs to: {@code GET /api/me}, the user's name and role. */
  public Caller me() {
    return http.get(
        "/api/me",
        node ->
            new Caller(node.path("name").asText(), Role.fromWireName(node.path("role").asText())));
  }

  /** Every user of the server (admins only): {@code GET /api/users}. */
  public List<User> users() {
    return http.get("/api/users", UsersJson::readUserList);
  }

  /**
   * Adds a user (admins only), their token expiring at {@code expiresAt} (null: never); the answer
   * holds the token, the one time it is shown.
   */
  public NewUser addUser(String name, Role role, Instant expiresAt) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("role", role.wireName());
    body.put("expires_at", expiresAt == null ? null : expiresAt.toString());
    return http.post("/api/users", body, UsersJson::readNewUser);
  }

  /** Revokes a user's token (admins only); revoking twice is harmless. */
  public User revokeUser(String name) {
    return http.post("/api/users/" + Http.segment(name) + "/revoke", null, UsersJson::readUser);
  }

  /** Who a token belongs to, as {@link #me()} answers. */
  public record Caller(String name, Role role) {}

  /** Stops the HTTP client; streams still open end. */
  @Override
  public void close() {
    http.close();
  }
}
