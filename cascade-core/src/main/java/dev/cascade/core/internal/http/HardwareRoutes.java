package dev.cascade.core.internal.http;

import dev.cascade.core.Results;
import dev.cascade.core.Role;
import dev.cascade.core.Run;
import dev.cascade.core.Runs;
import dev.cascade.core.internal.results.HardwareUploads;
import dev.cascade.core.json.CorrelationJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;

/** What the GPU measured: a trace's Nsight Compute CSV in, and a run's kernels against it out. */
final class HardwareRoutes {

  private final Runs runs;
  private final Results results;
  private final HardwareUploads uploads;
  private final Auth auth;

  HardwareRoutes(Runs runs, Results results, HardwareUploads uploads, Auth auth) {
    this.runs = runs;
    this.results = results;
    this.uploads = uploads;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.put(
        "/api/traces/{id}/hardware",
        auth.needs(Role.SUBMITTER, "uploading hardware results", this::put));
    routes.get("/api/runs/{id}/correlation", auth.viewer(this::correlation));
  }

  /** The body is the CSV as ncu wrote it; {@code ?name=} names it in messages (ncu.csv). */
  private void put(Context ctx) {
    String traceId = ctx.pathParam("id");
    String name = ctx.queryParam("name") == null ? "ncu.csv" : ctx.queryParam("name");
    String csv = new String(ctx.bodyAsBytes(), StandardCharsets.UTF_8);
    int kernels = uploads.put(traceId, name, csv);
    Json.send(ctx, 200, CorrelationJson.writeHardwareStored(traceId, name, kernels));
  }

  private void correlation(Context ctx) {
    Run run = runs.get(ctx.pathParam("id"));
    Json.send(ctx, 200, CorrelationJson.write(run.id(), results.correlate(run.id())));
  }
}
