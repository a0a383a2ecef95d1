package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelResult;
import dev.cascade.core.Results;
import dev.cascade.core.ResultsCsv;
import dev.cascade.core.Run;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import dev.cascade.core.Spread;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What sims produced: a sim's log and kernels, and a run's results as JSON and CSV. */
final class OutputRoutes {

  static final int MAX_TAIL_LINES = 10_000;

  private final Runs runs;
  private final Results results;
  private final GpuConfigCatalog configs;
  private final Auth auth;

  OutputRoutes(Runs runs, Results results, GpuConfigCatalog configs, Auth auth) {
    this.runs = runs;
    this.results = results;
    this.configs = configs;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/sims/{id}/log", auth.user(this::log));
    routes.get("/api/sims/{id}/kernels", auth.user(this::kernels));
    routes.get("/api/runs/{id}/results", auth.user(this::results));
    routes.get("/api/runs/{id}/results.csv", auth.user(this::resultsCsv));
  }

  /**
   * The whole log as plain text, streamed chunk by chunk; with {@code ?tail=n}, only its last n
   * lines.
   */
  private void log(Context ctx) throws IOException {
    String simId = ctx.pathParam("id");
    String tail = ctx.queryParam("tail");
    if (tail != null) {
      int lines = (int) wholeNumber(tail, "tail", MAX_TAIL_LINES);
      StringBuilder text = new StringBuilder();
      for (String line : runs.logTail(simId, lines)) {
        text.append(line).append('\n');
      }
      ctx.status(200).contentType("text/plain; charset=utf-8").result(text.toString());
      return;
    }
    try (InputStream log = runs.log(simId)) {
      ctx.status(200);
      ctx.res().setContentType("text/plain; charset=utf-8");
      ctx.res().setHeader("Content-Disposition", "inline; filename=\"" + simId + ".log\"");
      ctx.res().setHeader("Cache-Control", "no-store");
      OutputStream out = ctx.res().getOutputStream();
      log.transferTo(out);
      out.flush();
    }
  }

  private void kernels(Context ctx) {
    String simId = ctx.pathParam("id");
    Sim sim = runs.sim(simId);
    Double clockMhz =
        configs
            .find(sim.gpuConfig())
            .filter(GpuConfig::usable)
            .map(GpuConfig::clockMhz)
            .orElse(null);
    List<Map<String, Object>> kernels = new ArrayList<>();
    for (KernelResult kernel : runs.kernels(simId)) {
      kernels.add(kernel(kernel, clockMhz));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("sim_id", sim.id());
    body.put("run_id", sim.runId());
    body.put("gpu_config", sim.gpuConfig());
    body.put("replica", sim.replica());
    body.put("state", sim.state().wireName());
    body.put("clock_mhz", clockMhz);
    body.put("kernels", kernels);
    Json.send(ctx, 200, body);
  }

  private void results(Context ctx) {
    Run run = runs.get(ctx.pathParam("id"));
    List<Map<String, Object>> list = new ArrayList<>();
    for (ConfigResult config : results.compare(run.id())) {
      list.add(configResult(config));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run_id", run.id());
    body.put("trace_id", run.traceId());
    body.put("state", run.state().wireName());
    body.put("configs", list);
    Json.send(ctx, 200, body);
  }

  private void resultsCsv(Context ctx) throws IOException {
    Run run = runs.get(ctx.pathParam("id"));
    List<ConfigResult> compared = results.compare(run.id());
    ctx.status(200);
    ctx.res().setContentType("text/csv; charset=utf-8");
    ctx.res()
        .setHeader("Content-Disposition", "attachment; filename=\"" + run.id() + "-results.csv\"");
    Writer out = new OutputStreamWriter(ctx.res().getOutputStream(), StandardCharsets.UTF_8);
    ResultsCsv.write(compared, out);
    out.flush();
  }

  static Map<String, Object> kernel(KernelResult kernel, Double clockMhz) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("position", kernel.position());
    fields.put("name", kernel.name());
    fields.put("uid", kernel.uid());
    fields.put("instance", kernel.instance());
    fields.put("cycles", kernel.cycles());
    fields.put("instructions", kernel.instructions());
    fields.put("ipc", kernel.ipc());
    fields.put("simulated_time_us", clockMhz == null ? null : kernel.cycles() / clockMhz);
    fields.put("stats", kernel.stats());
    return fields;
  }

  static Map<String, Object> configResult(ConfigResult config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("arch", config.arch());
    fields.put("clock_mhz", config.clockMhz());
    fields.put("replicas", config.replicas());
    fields.put("succeeded", config.succeeded());
    List<Map<String, Object>> kernels = new ArrayList<>(config.kernels().size());
    for (KernelComparison kernel : config.kernels()) {
      kernels.add(comparison(kernel));
    }
    fields.put("kernels", kernels);
    fields.put("total", comparison(config.total()));
    fields.put("notes", config.notes());
    return fields;
  }

  private static Map<String, Object> comparison(KernelComparison kernel) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", kernel.name());
    fields.put("instance", kernel.instance());
    fields.put("n", kernel.n());
    fields.put("replicas", kernel.replicas());
    fields.put("cycles", spread(kernel.cycles()));
    fields.put("instructions", spread(kernel.instructions()));
    fields.put("ipc", spread(kernel.ipc()));
    fields.put("simulated_time_us", spread(kernel.simulatedTimeUs()));
    return fields;
  }

  private static Map<String, Object> spread(Spread spread) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("n", spread.n());
    fields.put("mean", spread.mean());
    fields.put("stdev", spread.stdev());
    fields.put("min", spread.min());
    fields.put("max", spread.max());
    fields.put("values", spread.values());
    return fields;
  }

  private static long wholeNumber(String text, String name, long max) {
    if (text.isEmpty()
        || text.length() > 9
        || !text.chars().allMatch(c -> c >= '0' && c <= '9')
        || Long.parseLong(text) > max) {
      throw new CascadeException(
          ErrorCode.INVALID,
          name
              + " must be a whole number from 0 to "
              + max
              + "; got \""
              + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
              + "\"",
          name);
    }
    return Long.parseLong(text);
  }
}
