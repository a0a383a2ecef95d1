package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Results;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * A run's results in the formats other tools read: the tidy CSV ({@code results/sims.csv}) and the
 * layout of Accel-Sim's {@code get_stats.py -k -K} ({@code results/get_stats.csv}).
 */
final class ExportRoutes {

  static final String CONFIGS_AS_ROWS = "configs_as_rows";

  private final Results results;
  private final Auth auth;

  ExportRoutes(Results results, Auth auth) {
    this.results = results;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/runs/{id}/results/sims.csv", auth.viewer(this::simsCsv));
    routes.get("/api/runs/{id}/results/get_stats.csv", auth.viewer(this::getStatsCsv));
  }

  private void simsCsv(Context ctx) {
    String runId = ctx.pathParam("id");
    send(ctx, results.simsCsv(runId), runId + "-sims.csv");
  }

  private void getStatsCsv(Context ctx) {
    String runId = ctx.pathParam("id");
    boolean configsAsRows = flag(ctx.queryParam(CONFIGS_AS_ROWS), CONFIGS_AS_ROWS);
    send(
        ctx,
        results.getStatsCsv(runId, configsAsRows),
        runId + (configsAsRows ? "-get_stats-R.csv" : "-get_stats.csv"));
  }

  private static void send(Context ctx, String csv, String fileName) {
    ctx.status(200).contentType("text/csv; charset=utf-8");
    ctx.header("Content-Disposition", "attachment; filename=\"" + fileName + "\"");
    ctx.result(csv);
  }

  private static boolean flag(String text, String name) {
    if (text == null || text.equals("false")) {
      return false;
    }
    if (text.equals("true")) {
      return true;
    }
    throw new CascadeException(
        ErrorCode.BAD_REQUEST,
        name
            + " must be true or false; got \""
            + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
            + "\"",
        name);
  }
}
