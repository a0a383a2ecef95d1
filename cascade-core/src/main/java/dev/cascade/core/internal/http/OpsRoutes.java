package dev.cascade.core.internal.http;

import dev.cascade.core.Run;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.EnumMap;
import java.util.Map;

/**
 * For operators and tools: {@code /healthz} and {@code /metrics}, open to anyone who can reach the
 * server (they reveal counts, never ids or output), and the API's own description.
 */
final class OpsRoutes {

  private final Runs runs;
  private final MetricsRegistry metrics;
  private final Auth auth;
  private final byte[] openApi = Json.bytes(OpenApi.document());

  OpsRoutes(Runs runs, MetricsRegistry metrics, Auth auth) {
    this.runs = runs;
    this.metrics = metrics;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/healthz", this::health);
    routes.get("/metrics", this::metrics);
    routes.get("/api/openapi.json", auth.user(this::openApi));
  }

  private void health(Context ctx) {
    Json.send(ctx, 200, Map.of("status", "ok"));
  }

  private void metrics(Context ctx) {
    ctx.status(200).contentType(MetricsRegistry.CONTENT_TYPE).result(metrics.render(simsByState()));
  }

  private void openApi(Context ctx) {
    ctx.status(200).contentType(Json.CONTENT_TYPE).result(openApi);
  }

  private Map<SimState, Long> simsByState() {
    Map<SimState, Long> counts = new EnumMap<>(SimState.class);
    for (Run run : runs.list()) {
      for (Sim sim : run.sims()) {
        counts.merge(sim.state(), 1L, Long::sum);
      }
    }
    return counts;
  }
}
