package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.Runs;
import dev.cascade.core.Sampling;
import dev.cascade.core.internal.run.QueuedSims;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.RunListJson;
import dev.cascade.core.json.ScheduleJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Creating, listing, reading and cancelling runs. */
final class RunRoutes {

  private final Runs runs;
  private final Auth auth;
  private final Clock clock;
  private final int maxJsonBytes;
  private final QueuedSims queued;

  RunRoutes(Runs runs, Auth auth, Clock clock, int maxJsonBytes, QueuedSims queued) {
    this.queued = queued;
    this.runs = runs;
    this.auth = auth;
    this.clock = clock;
    this.maxJsonBytes = maxJsonBytes;
  }

  void register(RoutesConfig routes) {
    routes.post("/api/runs", auth.user(this::create));
    routes.get("/api/runs", auth.user(this::list));
    routes.get("/api/runs/{id}", auth.user(this::get));
    routes.post("/api/runs/{id}/cancel", auth.user(this::cancel));
    routes.post("/api/runs/{id}/retry", auth.user(this::retry));
    routes.post("/api/runs/{id}/rerun", auth.user(this::rerun));
  }

  /**
   * {@code {"trace_id", "entries": [{"gpu_config", "count", "time_limit"}], "owner", "priority"}}:
   * 201 with the run and its {@code Location}. Types and ranges are checked here so the error names
   * the exact field; the run manager checks the rest (trace, configs, duplicates).
   */
  private void create(Context ctx) {
    JsonBody body = JsonBody.read(ctx, maxJsonBytes);
    String traceId = body.requiredString("trace_id");
    List<JsonBody> items = body.requiredObjects("entries");
    if (items.isEmpty()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "entries must list at least one {\"gpu_config\", \"count\"}",
          "entries");
    }
    List<RunEntry> entries = new ArrayList<>(items.size());
    for (JsonBody item : items) {
      String gpuConfig = item.requiredString("gpu_config");
      int count = count(item, gpuConfig);
      String kernels = item.optionalString("kernels");
      Duration timeLimit = item.optionalTimeLimit("time_limit");
      Sampling sampling = item.optionalSampling("sampling");
      try {
        entries.add(new RunEntry(gpuConfig, count, kernels, timeLimit, sampling));
      } catch (IllegalArgumentException e) {
        throw new CascadeException(ErrorCode.INVALID, e.getMessage(), item.pathOf("kernels"));
      }
    }
    Run run =
        runs.create(
            traceId, entries, options(body).withReuse(body.optionalBoolean("reuse", false)));
    ctx.header("Location", "/api/runs/" + run.id());
    Json.send(ctx, 201, withSchedule(run));
  }

  /** The run's {@code owner} (default {@value RunOptions#DEFAULT_OWNER}) and {@code priority}. */
  private static RunOptions options(JsonBody body) {
    String owner = body.optionalString("owner");
    int priority =
        (int) body.optionalLong("priority", -RunOptions.MAX_PRIORITY, RunOptions.MAX_PRIORITY, 0);
    if (owner == null) {
      return RunOptions.defaults().withPriority(priority);
    }
    try {
      return new RunOptions(owner, priority);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "owner");
    }
  }

  /**
   * The run, each unfinished sim with its place in the queue, its estimated finish and why its
   * launcher still queues it.
   */
  private Object withSchedule(Run run) {
    return QueuedReasons.add(
        ScheduleJson.writeRun(run, clock.instant(), runs.schedule(run)), queued);
  }

  /**
   * An entry's count. A refusal names the config in words, as the web form and the command line
   * show it ({@code count for "SM90_H100" must be 1 to 64; got 65}); the field path is beside it.
   */
  private static int count(JsonBody item, String gpuConfig) {
    try {
      return (int) item.requiredLong("count", 1, RunEntry.MAX_COUNT);
    } catch (CascadeException e) {
      String problem = e.getMessage().substring(e.field().length()).strip();
      throw new CascadeException(e.code(), "count for \"" + gpuConfig + "\" " + problem, e.field());
    }
  }

  /** A page of runs, newest first, filtered by {@link RunListParams}. */
  private void list(Context ctx) {
    Json.send(ctx, 200, RunListJson.writePage(runs.list(RunListParams.read(ctx))));
  }

  private void get(Context ctx) {
    Json.send(ctx, 200, withSchedule(runs.get(ctx.pathParam("id"))));
  }

  /** Launches the run's failed and cancelled sims again, as new attempts. */
  private void retry(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeRun(runs.retry(ctx.pathParam("id")), clock.instant()));
  }

  /** A new run of the same trace and entries: 201 with it and its {@code Location}. */
  private void rerun(Context ctx) {
    Run run = runs.rerun(ctx.pathParam("id"));
    ctx.header("Location", "/api/runs/" + run.id());
    Json.send(ctx, 201, ApiJson.writeRun(run, clock.instant()));
  }

  private void cancel(Context ctx) {
    Json.send(ctx, 200, withSchedule(runs.cancel(ctx.pathParam("id"))));
  }
}
