package dev.cascade.core.internal.http;

import dev.cascade.agent.SimContract;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.internal.run.HeartbeatReply;
import dev.cascade.core.internal.run.SimReports;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sim side of the contract (DESIGN.md section 7): heartbeats and output chunks, each behind the
 * sim's own token.
 */
final class SimRoutes {

  /** Sims whose first heartbeat this server has seen; cleared when it grows past this. */
  private static final int SEEN_LIMIT = 100_000;

  private final Runs runs;
  private final SimReports reports;
  private final Auth auth;
  private final MetricsRegistry metrics;
  private final Clock clock;
  private final int maxJsonBytes;
  private final int maxChunkBytes;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  SimRoutes(
      Runs runs,
      SimReports reports,
      Auth auth,
      MetricsRegistry metrics,
      Clock clock,
      int maxJsonBytes,
      int maxChunkBytes) {
    this.runs = runs;
    this.reports = reports;
    this.auth = auth;
    this.metrics = metrics;
    this.clock = clock;
    this.maxJsonBytes = maxJsonBytes;
    this.maxChunkBytes = maxChunkBytes;
  }

  void register(RoutesConfig routes) {
    routes.post("/api/sims/{id}/heartbeat", auth.sim(this::heartbeat));
    routes.put("/api/sims/{id}/chunks/{seq}", auth.sim(this::chunk));
  }

  /**
   * {@code {"state": "running"|"succeeded"|"failed", "error", "exit_code", "chunks",
   * "peak_memory_bytes"}}: answers {@code {"cancel": bool}}, plus {@code "missing": [seq, ...]}
   * while a final heartbeat waits for chunks.
   */
  private void heartbeat(Context ctx) {
    String simId = ctx.pathParam("id");
    JsonBody body = JsonBody.read(ctx, maxJsonBytes);
    SimState state = reportedState(body);
    String error = body.optionalString("error");
    Integer exitCode = body.optionalInt("exit_code");
    long chunks = body.optionalLong("chunks", 0, Long.MAX_VALUE, 0);
    long peakMemory = body.optionalLong("peak_memory_bytes", 0, Long.MAX_VALUE, 0);
    Heartbeat heartbeat = new Heartbeat(state, error, exitCode, chunks, peakMemory);
    observeFirstHeartbeat(simId);
    HeartbeatReply reply = reports.heartbeat(simId, heartbeat);
    metrics.heartbeat(state);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("cancel", reply.cancel());
    if (!reply.missing().isEmpty()) {
      answer.put("missing", reply.missing());
    }
    Json.send(ctx, 200, answer);
  }

  /** Raw output bytes as chunk {@code seq}: answers {@code {"stored": bool}}. */
  private void chunk(Context ctx) {
    String simId = ctx.pathParam("id");
    long seq = seq(ctx.pathParam("seq"));
    Instant readAt = readAt(ctx.header(SimContract.CHUNK_READ_AT_HEADER));
    byte[] bytes = BoundedBody.read(ctx, maxChunkBytes, "a chunk");
    boolean stored = reports.putChunk(simId, seq, bytes, readAt);
    metrics.chunk(bytes.length, stored);
    Json.send(ctx, 200, Map.of("stored", stored));
  }

  /**
   * The agent's stamp of when it read a chunk's last bytes, in epoch milliseconds; null when it
   * sent none (older agents: the chunk's kernels are then timed by its arrival).
   */
  static Instant readAt(String header) {
    if (header == null) {
      return null;
    }
    String text = header.strip();
    if (text.isEmpty() || text.length() > 18 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new CascadeException(
          ErrorCode.INVALID,
          SimContract.CHUNK_READ_AT_HEADER
              + " must be when the chunk's bytes were read, in whole milliseconds since 1970; got \""
              + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
              + "\"",
          SimContract.CHUNK_READ_AT_HEADER);
    }
    return Instant.ofEpochMilli(Long.parseLong(text));
  }

  private static SimState reportedState(JsonBody body) {
    String text = body.requiredString("state");
    return switch (text) {
      case "running" -> SimState.RUNNING;
      case "succeeded" -> SimState.SUCCEEDED;
      case "failed" -> SimState.FAILED;
      default ->
          throw new CascadeException(
              ErrorCode.INVALID,
              "state must be \"running\", \"succeeded\" or \"failed\"; got \""
                  + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
                  + "\"",
              "state");
    };
  }

  static long seq(String text) {
    if (text.isEmpty() || text.length() > 18 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "seq must be a whole number from 0, the chunk's place in the output; got \""
              + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
              + "\"",
          "seq");
    }
    return Long.parseLong(text);
  }

  /** The first heartbeat of a sim ends its launch: how long that took is a metric. */
  private void observeFirstHeartbeat(String simId) {
    if (seen.contains(simId)) {
      return;
    }
    Sim sim = runs.sim(simId);
    if (seen.size() >= SEEN_LIMIT) {
      seen.clear();
    }
    if (seen.add(simId) && sim.lastHeartbeatAt() == null) {
      metrics.launched(Duration.between(sim.createdAt(), clock.instant()));
    }
  }
}
