package dev.cascade.core.internal.http;

import dev.cascade.core.Run;
import dev.cascade.core.Runs;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * For operators and tools: {@code /healthz} and {@code /metrics}, open to anyone who can reach the
 * server (they reveal counts, never ids or output), and the API's own description.
 */
final class OpsRoutes {

  private final Runs runs;
  private final Supplier<Optional<String>> writeFault;
  private final MetricsRegistry metrics;
  private final Auth auth;
  private final byte[] openApi = Json.bytes(OpenApi.document());

  OpsRoutes(Runs runs, Supplier<Optional<String>> writeFault, MetricsRegistry metrics, Auth auth) {
    this.runs = runs;
    this.writeFault = writeFault;
    this.metrics = metrics;
    this.auth = auth;
  }

  void register(RoutesConfig routes) {
    routes.get("/healthz", this::health);
    routes.get("/metrics", this::metrics);
    routes.get("/api/openapi.json", auth.viewer(this::openApi));
  }

  /** Unhealthy (503, with the reason) while Cascade cannot write its data. */
  private void health(Context ctx) {
    Optional<String> fault = writeFault.get();
    if (fault.isPresent()) {
      Json.send(ctx, 503, Map.of("status", "unhealthy", "reason", fault.get()));
    } else {
      Json.send(ctx, 200, Map.of("status", "ok"));
    }
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
