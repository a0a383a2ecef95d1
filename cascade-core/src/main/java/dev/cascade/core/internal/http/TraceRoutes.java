package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Sampling;
import dev.cascade.core.Traces;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.SamplingJson;
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
    routes.get("/api/traces/{id}/sampling", auth.viewer(this::sampling));
    routes.get("/api/gpu-configs", auth.viewer(this::gpuConfigs));
  }

  private void list(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeTraceList(traces.list(), traces.skippedFolders()));
  }

  private void get(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeTrace(traces.get(ctx.pathParam("id")), true));
  }

  /**
   * The trace's kernel sampling plan: {@code ?target_error=0.05&budget=40&method=instructions},
   * each optional.
   */
  private void sampling(Context ctx) {
    Json.send(
        ctx,
        200,
        SamplingJson.writePlan(traces.sampling(ctx.pathParam("id"), samplingRequest(ctx))));
  }

  /** The sampling a query asks for; a refusal names the parameter and its value. */
  static Sampling samplingRequest(Context ctx) {
    String target = ctx.queryParam("target_error");
    String budget = ctx.queryParam("budget");
    String method = ctx.queryParam("method");
    double targetError = Sampling.DEFAULT_TARGET_ERROR;
    if (target != null) {
      try {
        targetError = Double.parseDouble(target.strip());
      } catch (NumberFormatException e) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "target_error \"" + target + "\" is not a number; give a fraction such as 0.05 for 5%",
            "target_error");
      }
    }
    Integer maxKernels = null;
    if (budget != null) {
      try {
        maxKernels = Integer.parseInt(budget.strip());
      } catch (NumberFormatException e) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "budget \"" + budget + "\" is not a whole number of kernels to simulate",
            "budget");
      }
    }
    try {
      return new Sampling(targetError, maxKernels, method, false, null);
    } catch (IllegalArgumentException e) {
      String field =
          e.getMessage().contains("target_error")
              ? "target_error"
              : e.getMessage().contains("budget") ? "budget" : "method";
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), field);
    }
  }

  private void gpuConfigs(Context ctx) {
    Json.send(ctx, 200, ApiJson.writeGpuConfigList(configs.list()));
  }
}
