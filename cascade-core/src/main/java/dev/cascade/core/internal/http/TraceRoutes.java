package dev.cascade.core.internal.http;

import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Traces;
import dev.cascade.core.json.ApiJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/** What can be run on what: the traces and the GPU config catalog. */
final class TraceRoutes {

  private final Traces traces;
  private final GpuConfigCatalog configs;
  private final Auth auth;

  TraceRoutes(Traces traces, GpuConfigCatalog configs, Auth auth) {
    this.traces = traces;
    this.configs = configs;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/traces", auth.viewer(this::list));
    routes.get("/api/traces/{id}", auth.viewer(this::get));
    routes.get("/api/gpu-configs", auth.viewer(this::gpuConfigs));
  }

  private void list(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeTraceList(traces.list(), traces.skippedFolders()));
  }

  private void get(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeTrace(traces.get(ctx.pathParam("id")), true));
  }

  private void gpuConfigs(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeGpuConfigList(configs.list()));
  }
}
