package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Role;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunOptions;
import dev.cascade.core.RunStorage;
import dev.cascade.core.Sampling;
import dev.cascade.core.internal.run.QueuedSims;
import dev.cascade.core.internal.run.RunService;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.RunListJson;
import dev.cascade.core.json.ScheduleJson;
import dev.cascade.core.json.SpeedJson;
import dev.cascade.core.json.StorageJson;
import dev.cascade.core.json.UsersJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Creating, listing, reading, cancelling, retrying and rerunning runs, each as its caller. */
final class RunRoutes {

  private final RunService runs;
  private final Auth auth;
  private final Clock clock;
  private final int maxJsonBytes;
  private final QueuedSims queued;

  private final Function<Run, RunStorage> storage;

  RunRoutes(
      RunService runs,
      Auth auth,
      Clock clock,
      int maxJsonBytes,
      QueuedSims queued,
      Function<Run, RunStorage> storage) {
    this.queued = queued;
    this.storage = storage;
    this.runs = runs;
    this.auth = auth;
    this.clock = clock;
    this.maxJsonBytes = maxJsonBytes;
  }

  void register(RoutesConfig routes) {
    routes.post("/api/runs", auth.needs(Role.SUBMITTER, "creating a run", this::create));
    routes.get("/api/runs", auth.viewer(this::list));
    routes.get("/api/runs/{id}", auth.viewer(this::get));
    routes.get("/api/runs/{id}/speed", auth.viewer(this::speed));
    routes.post(
        "/api/runs/{id}/cancel", auth.needs(Role.SUBMITTER, "cancelling a run", this::cancel));
    routes.post("/api/runs/{id}/retry", auth.needs(Role.SUBMITTER, "retrying a run", this::retry));
    routes.post("/api/runs/{id}/rerun", auth.needs(Role.SUBMITTER, "rerunning a run", this::rerun));
  }

  /**
   * {@code {"trace_id", "entries": [{"gpu_config", "count", "kernels", "time_limit", "context"}],
   * "owner", "priority"}}: 201 with the run and its {@code Location}. The run is the caller's: only
   * an admin's {@code owner} is taken; anyone else's is ignored, so a run is never someone else's
   * by a field. Types and ranges are checked here so the error names the exact field; the run
   * manager checks the rest (trace, configs, duplicates).
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
      String context = item.optionalString("context");
      if (context != null) {
        try {
          RunEntry.requireValidContext(context);
        } catch (IllegalArgumentException e) {
          throw new CascadeException(ErrorCode.INVALID, e.getMessage(), item.pathOf("context"));
        }
      }
      Sampling sampling = item.optionalSampling("sampling");
      try {
        entries.add(
            new RunEntry(gpuConfig, count, kernels, timeLimit)
                .withContext(context)
                .withSampling(sampling));
      } catch (IllegalArgumentException e) {
        throw new CascadeException(ErrorCode.INVALID, e.getMessage(), item.pathOf("kernels"));
      }
      var params = item.optionalValueMap("params");
      var sweep = item.optionalValueListMap("sweep");
      String label = item.optionalString("label");
      if (!params.isEmpty() || !sweep.isEmpty() || label != null) {
        try {
          RunEntry plain = entries.removeLast();
          entries.add(plain.withParams(params).withSweep(sweep).withLabel(label));
        } catch (IllegalArgumentException e) {
          throw new CascadeException(
              ErrorCode.INVALID,
              e.getMessage(),
              item.pathOf(
                  label != null && e.getMessage().startsWith("label")
                      ? "label"
                      : !sweep.isEmpty() && e.getMessage().startsWith("sweep")
                          ? "sweep"
                          : "params"));
        }
      }
    }
    Run run =
        runs.create(
            traceId,
            entries,
            options(body, Auth.caller(ctx)).withReuse(body.optionalBoolean("reuse", false)));
    ctx.header("Location", "/api/runs/" + run.id());
    Json.send(ctx, 201, withSchedule(run));
  }

  /**
   * The run's {@code owner} (default: the caller, {@value RunOptions#DEFAULT_OWNER} for the local
   * admin) and {@code priority}.
   */
  private static RunOptions options(JsonBody body, Caller caller) {
    String owner = body.optionalString("owner");
    int priority =
        (int) body.optionalLong("priority", -RunOptions.MAX_PRIORITY, RunOptions.MAX_PRIORITY, 0);
    if (owner == null || !caller.role().includes(Role.ADMIN)) {
      // A run is its creator's: a non-admin's owner field is not theirs to choose (a client that
      // always sends one, such as the command line's user name, still works; the answer's owner
      // says whose the run is).
      return new RunOptions(caller.name(), priority);
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
    Map<String, Object> json = ScheduleJson.writeRun(run, clock.instant(), runs.schedule(run));
    json.put("storage", StorageJson.writeRunStorage(storage.apply(run)));
    return withActions(QueuedReasons.add(json, queued), run.id());
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

  /** The run's simulation speed per config, next to earlier runs' by simulator build. */
  private void speed(Context ctx) {
    Json.send(ctx, 200, SpeedJson.write(runs.speed(ctx.pathParam("id"))));
  }

  /**
   * Launches the run's failed and cancelled sims again, as new attempts: the owner's, or an
   * admin's, recorded with who asked.
   */
  private void retry(Context ctx) {
    String runId = ownRun(ctx, "retrying another user's run");
    Json.send(
        ctx,
        200,
        withActions(
            ApiJson.writeRun(runs.retry(runId, Auth.caller(ctx).name()), clock.instant()), runId));
  }

  /**
   * A new run of the same trace and entries, the caller's: 201 with it and its {@code Location};
   * the old run records who reran it.
   */
  private void rerun(Context ctx) {
    String runId = ownRun(ctx, "rerunning another user's run");
    Run run = runs.rerun(runId, Auth.caller(ctx).name());
    ctx.header("Location", "/api/runs/" + run.id());
    Json.send(ctx, 201, withActions(ApiJson.writeRun(run, clock.instant()), run.id()));
  }

  /** Cancels the run: the owner's, or an admin's, recorded with who asked. */
  private void cancel(Context ctx) {
    String runId = ownRun(ctx, "cancelling another user's run");
    Json.send(ctx, 200, withSchedule(runs.cancel(runId, Auth.caller(ctx).name())));
  }

  /** The path's run id, once the run is found (404) and the caller may act on it (403). */
  private String ownRun(Context ctx, String doingToAnother) {
    Run run = runs.get(ctx.pathParam("id"));
    Auth.requireOwnerOrAdmin(ctx, run.owner(), doingToAnother);
    return run.id();
  }

  /** The run's JSON with {@code actions}: who cancelled, retried or reran it, and when. */
  private Map<String, Object> withActions(Map<String, Object> run, String runId) {
    run.put("actions", runs.actions(runId).stream().map(UsersJson::writeAction).toList());
    return run;
  }
}
