package dev.cascade.core.internal.http;

import dev.cascade.core.Measures;
import dev.cascade.core.Results;
import dev.cascade.core.RunComparisons;
import dev.cascade.core.Runs;
import dev.cascade.core.json.CompareJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/** Runs against a baseline run: {@code GET /api/compare?runs=A,B[,...][&measures=NAME,...]}. */
final class CompareRoutes {

  private final Runs runs;
  private final Results results;
  private final Auth auth;

  CompareRoutes(Runs runs, Results results, Auth auth) {
    this.runs = runs;
    this.results = results;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/compare", auth.viewer(this::compare));
  }

  private void compare(Context ctx) {
    List<String> ids = RunComparisons.parseRunIds(ctx.queryParam("runs"));
    Json.send(
        ctx,
        200,
        CompareJson.write(
            RunComparisons.compare(
                runs, results, ids, Measures.parseList(ctx.queryParam("measures")))));
  }
}
