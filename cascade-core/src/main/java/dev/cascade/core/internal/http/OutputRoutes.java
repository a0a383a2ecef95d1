package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.GpuConfig;
import dev.cascade.core.GpuConfigCatalog;
import dev.cascade.core.Measure;
import dev.cascade.core.Measures;
import dev.cascade.core.PartialResults;
import dev.cascade.core.Results;
import dev.cascade.core.ResultsCsv;
import dev.cascade.core.Run;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import dev.cascade.core.Speedups;
import dev.cascade.core.json.MeasureJson;
import dev.cascade.core.json.ResultsJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** What sims produced: a sim's log and kernels, and a run's results as JSON and CSV. */
final class OutputRoutes {

  static final int MAX_TAIL_LINES = 10_000;

  /** Says a run's results.csv is partial, and what is to come (the body keeps its shape). */
  static final String PARTIAL_HEADER = "Cascade-Partial";

  private static final int MAX_PARTIAL_HEADER = 1_000;

  private final Runs runs;
  private final Results results;
  private final GpuConfigCatalog configs;
  private final Auth auth;
  private final java.util.function.BiFunction<
          dev.cascade.core.Run, Integer, java.util.Map<String, String>>
      entryConfigs;

  OutputRoutes(Runs runs, Results results, GpuConfigCatalog configs, Auth auth) {
    this(runs, results, configs, auth, null);
  }

  OutputRoutes(
      Runs runs,
      Results results,
      GpuConfigCatalog configs,
      Auth auth,
      java.util.function.BiFunction<dev.cascade.core.Run, Integer, java.util.Map<String, String>>
          entryConfigs) {
    this.entryConfigs = entryConfigs;
    this.runs = runs;
    this.results = results;
    this.configs = configs;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/sims/{id}/log", auth.viewer(this::log));
    routes.get("/api/sims/{id}/kernels", auth.viewer(this::kernels));
    routes.get("/api/runs/{id}/results", auth.viewer(this::results));
    routes.get("/api/runs/{id}/results.csv", auth.viewer(this::resultsCsv));
    routes.get("/api/measures", auth.viewer(this::measures));
    if (entryConfigs != null) {
      routes.get("/api/runs/{id}/entries/{entry}/{file}", auth.viewer(this::entryConfig));
    }
  }

  /**
   * An option file of a run's entry as its sims read it: {@code gpgpusim.config} or {@code
   * trace.config}, a variant's with its parameters applied; a download.
   */
  private void entryConfig(Context ctx) {
    String file = ctx.pathParam("file");
    if (!file.equals("gpgpusim.config") && !file.equals("trace.config")) {
      throw new CascadeException(
          ErrorCode.NOT_FOUND,
          "an entry's config files are gpgpusim.config and trace.config; got \"" + file + "\"",
          "file");
    }
    int entry = (int) wholeNumber(ctx.pathParam("entry"), "entry", 10_000);
    java.util.Map<String, String> files = entryConfigs.apply(runs.get(ctx.pathParam("id")), entry);
    String text = files.get(file);
    if (text == null) {
      throw new CascadeException(
          ErrorCode.NOT_FOUND,
          "entry "
              + entry
              + "'s config has no "
              + file
              + " (a built-in config has only gpgpusim.config)",
          "file");
    }
    ctx.status(200).contentType("text/plain; charset=utf-8");
    ctx.res().setHeader("Content-Disposition", "attachment; filename=\"" + file + "\"");
    ctx.result(text);
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
    Json.send(ctx, 200, ResultsJson.writeSimKernels(sim, clockMhz, runs.kernels(simId)));
  }

  private void results(Context ctx) {
    Run run = runs.get(ctx.pathParam("id"));
    List<Measure> measures = askedMeasures(ctx);
    Json.send(
        ctx,
        200,
        ResultsJson.writeResults(
            run, results.compare(run, measures), ctx.queryParam("baseline"), measures));
  }

  /**
   * {@code GET /api/measures}: the default measures and how to ask for others; with {@code
   * ?run=ID}, the statistics that run's first sim with a finished kernel printed, in log order.
   */
  private void measures(Context ctx) {
    String runId = ctx.queryParam("run");
    List<String> statistics = List.of();
    if (runId != null) {
      Run run = runs.get(runId);
      statistics =
          run.sims().stream()
              .filter(sim -> sim.progress().kernelsDone() > 0)
              .findFirst()
              .map(sim -> runs.kernels(sim.id()))
              .filter(kernels -> !kernels.isEmpty())
              .map(kernels -> List.copyOf(kernels.getFirst().stats().keySet()))
              .orElse(List.of());
    }
    Json.send(ctx, 200, MeasureJson.writeCatalog(results.measures(), statistics));
  }

  private void resultsCsv(Context ctx) throws IOException {
    Run run = runs.get(ctx.pathParam("id"));
    List<Measure> measures = askedMeasures(ctx);
    List<ConfigResult> compared = results.compare(run, measures);
    String baseline = Speedups.baseline(compared, ctx.queryParam("baseline")); // 400 before 200
    ctx.status(200);
    ctx.res().setContentType("text/csv; charset=utf-8");
    ctx.res()
        .setHeader("Content-Disposition", "attachment; filename=\"" + run.id() + "-results.csv\"");
    PartialResults partial = PartialResults.of(run);
    if (partial.partial()) {
      // In a header, not the body: the CSV keeps one shape that every reader takes as it is.
      String summary = partial.summary(); // names the sims to come: long for a large run
      ctx.res()
          .setHeader(
              PARTIAL_HEADER,
              summary.length() <= MAX_PARTIAL_HEADER
                  ? summary
                  : summary.substring(0, MAX_PARTIAL_HEADER - 3) + "...");
    }
    Writer out = new OutputStreamWriter(ctx.res().getOutputStream(), StandardCharsets.UTF_8);
    ResultsCsv.write(compared, baseline, measures, out);
    out.flush();
  }

  /** The simulator's measures, then those {@code ?measures=} names. */
  private List<Measure> askedMeasures(Context ctx) {
    List<Measure> all = new ArrayList<>(results.measures());
    all.addAll(Measures.parseList(ctx.queryParam("measures")));
    return Measures.withDefaults(all.stream().distinct().toList());
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
