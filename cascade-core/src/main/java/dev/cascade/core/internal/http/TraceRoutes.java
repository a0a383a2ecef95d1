package dev.cascade.core.internal.http;

import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.Traces;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    routes.get("/api/traces", auth.user(this::list));
    routes.get("/api/traces/{id}", auth.user(this::get));
    routes.get("/api/gpu-configs", auth.user(this::gpuConfigs));
  }

  private void list(Context ctx) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Trace trace : traces.list()) {
      list.add(trace(trace, false));
    }
    Json.send(ctx, 200, Map.of("traces", list));
  }

  private void get(Context ctx) {
    Json.send(ctx, 200, trace(traces.get(ctx.pathParam("id")), true));
  }

  private void gpuConfigs(Context ctx) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (GpuConfig config : configs.list()) {
      list.add(gpuConfig(config));
    }
    Json.send(ctx, 200, Map.of("gpu_configs", list));
  }

  /** A trace; with its kernels only when {@code withKernels} (a list leaves them out). */
  static Map<String, Object> trace(Trace trace, boolean withKernels) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", trace.id());
    fields.put("state", trace.state().wireName());
    fields.put("reason", trace.reason());
    fields.put("trace_gpu_arch", trace.traceGpuArch());
    fields.put("suggested_sim_config", trace.suggestedSimConfig());
    fields.put("model_name", trace.modelName());
    fields.put("traced_layers", trace.tracedLayers());
    fields.put("kernel_count", trace.kernelCount());
    if (withKernels) {
      List<Map<String, Object>> kernels = new ArrayList<>(trace.kernels().size());
      for (TraceKernel kernel : trace.kernels()) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("index", kernel.index());
        item.put("file", kernel.file());
        item.put("name", kernel.name());
        item.put("grid", kernel.grid());
        item.put("block", kernel.block());
        item.put("instructions", kernel.instructions());
        kernels.add(item);
      }
      fields.put("kernels", kernels);
    }
    fields.put("size_bytes", trace.sizeBytes());
    fields.put("sample", trace.sample());
    fields.put("runnable", trace.runnable());
    fields.put("created_at", Json.text(trace.createdAt()));
    fields.put("updated_at", Json.text(trace.updatedAt()));
    return fields;
  }

  static Map<String, Object> gpuConfig(GpuConfig config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", config.name());
    fields.put("arch", config.arch());
    fields.put("clock_mhz", config.usable() || config.clockMhz() > 0 ? config.clockMhz() : null);
    fields.put("sms", config.sms() > 0 ? config.sms() : null);
    fields.put("has_trace_config", config.hasTraceConfig());
    fields.put("usable", config.usable());
    fields.put("reason", config.reason());
    fields.put("warnings", config.warnings());
    return fields;
  }
}
