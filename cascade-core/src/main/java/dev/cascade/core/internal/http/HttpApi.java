package dev.cascade.core.internal.http;

import dev.cascade.core.Cascade;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunManager;
import dev.cascade.core.ServerSettings;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.HandlerType;
import io.javalin.router.ParsedEndpoint;
import io.javalin.util.JavalinBindException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The HTTP API on Javalin (Jetty, virtual threads): every route of DESIGN.md sections 7 and 8, the
 * error mapping, the metrics, and the web UI's static files ({@link StaticFiles}). {@link
 * dev.cascade.core.CascadeServer} is its public face.
 */
public final class HttpApi implements AutoCloseable {

  private final Javalin app;
  private final EventStreamer events;
  private final MetricsRegistry metrics;

  private HttpApi(Javalin app, EventStreamer events, MetricsRegistry metrics) {
    this.app = app;
    this.events = events;
    this.metrics = metrics;
  }

  /**
   * Starts listening on {@code settings.bind()}:{@code settings.port()}. The caller has checked
   * that the address and the token go together.
   */
  public static HttpApi start(Cascade cascade, ServerSettings settings) {
    Objects.requireNonNull(cascade, "cascade");
    Objects.requireNonNull(settings, "settings");
    RunManager runs = cascade.runs();
    Clock clock = cascade.settings().clock();
    MetricsRegistry metrics = new MetricsRegistry();
    Auth auth = new Auth(settings.token(), runs);
    EventStreamer events = new EventStreamer(runs, auth, metrics, settings.sseKeepAlive());
    Javalin app =
        Javalin.create(
            config -> {
              config.startup.showJavalinBanner = false;
              config.startup.showOldJavalinVersionWarning = false;
              config.concurrency.useVirtualThreads = true;
              config.http.prefer405over404 = true;
              config.http.generateEtags = false;
              config.http.compressionStrategy = CompressionStrategy.NONE;
              config.http.maxRequestSize = settings.maxChunkBytes();
              config.jetty.host = settings.bind();
              config.jetty.port = settings.port();
              config.jetty.modifyServer(
                  server -> server.setErrorHandler(new ErrorMapping.JettyErrors()));
              config.jetty.modifyServletContextHandler(
                  handler -> handler.setErrorHandler(new ErrorMapping.JettyErrors()));
              ErrorMapping.register(config.routes);
              config.routes.after(ctx -> metrics.response(ctx.statusCode()));
              new OpsRoutes(runs, metrics, auth).register(config.routes);
              new TraceRoutes(cascade.traces(), cascade.configs(), auth).register(config.routes);
              new RunRoutes(runs, auth, clock, settings.maxJsonBytes()).register(config.routes);
              events.register(config.routes);
              new SimRoutes(
                      runs, auth, metrics, clock, settings.maxJsonBytes(), settings.maxChunkBytes())
                  .register(config.routes);
              new OutputRoutes(runs, cascade.results(), cascade.configs(), auth)
                  .register(config.routes);
              // The web UI: its page and files from the jar, outside /api and without a token.
              new StaticFiles().register(config.routes);
            });
    try {
      app.start();
    } catch (JavalinBindException e) {
      events.close();
      app.stop();
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "cannot listen on "
              + settings.bind()
              + ":"
              + settings.port()
              + " ("
              + e.getMessage()
              + "); is another server using the port? Pick another port",
          "port",
          e);
    }
    return new HttpApi(app, events, metrics);
  }

  /** The port the server listens on. */
  public int port() {
    return app.port();
  }

  /** Every HTTP route, as {@code METHOD path} ({@code GET /api/runs/{id}}). */
  public List<String> routes() {
    List<String> routes = new ArrayList<>();
    for (ParsedEndpoint parsed : app.unsafe.internalRouter.allHttpHandlers()) {
      HandlerType method = parsed.endpoint.method;
      if (method.isHttpMethod()) {
        routes.add(method.name() + " " + parsed.endpoint.path);
      }
    }
    return routes;
  }

  /** Clients following a run's events right now. */
  public int eventStreamClients() {
    return metrics.sseClients();
  }

  /** How many responses with {@code status} the server has sent. */
  public long responses(int status) {
    return metrics.responses(status);
  }

  /** Ends the event streams and stops the server. */
  @Override
  public void close() {
    events.close();
    app.stop();
  }
}
