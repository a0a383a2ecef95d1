package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.ListenAddress;
import dev.cascade.core.ServerSettings;
import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.RunService;
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

  private final String url;

  private HttpApi(Javalin app, EventStreamer events, MetricsRegistry metrics, String url) {
    this.app = app;
    this.events = events;
    this.metrics = metrics;
    this.url = url;
  }

  /**
   * Starts serving {@code engine} on {@code settings.bind()}:{@code settings.port()}.
   *
   * @throws CascadeException {@code invalid} (field {@code bind}) when the address is not loopback
   *     and there is no token, or the address cannot be resolved; {@code unavailable} (field {@code
   *     port}) when the port is taken
   */
  public static HttpApi start(Engine engine, ServerSettings settings) {
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(settings, "settings");
    ListenAddress address = BindAddress.requireSafe(settings);
    RunService runs = engine.runs();
    Clock clock = engine.clock();
    MetricsRegistry metrics = new MetricsRegistry();
    Auth auth = new Auth(settings.token(), engine.users(), engine.reports());
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
              config.jetty.host = address.literal();
              config.jetty.port = settings.port();
              config.jetty.addConnector(
                  (server, http) -> BurstConnector.create(server, http, address, settings.port()));
              config.jetty.modifyServer(
                  server -> server.setErrorHandler(new ErrorMapping.JettyErrors()));
              config.jetty.modifyServletContextHandler(
                  handler -> handler.setErrorHandler(new ErrorMapping.JettyErrors()));
              ErrorMapping.register(config.routes);
              config.routes.after(ctx -> metrics.response(ctx.statusCode()));
              new OpsRoutes(runs, engine::writeFault, metrics, auth).register(config.routes);
              new UploadRoutes(settings.uploads(), auth).register(config.routes);
              new SimulatorRoutes(
                      engine.settings().simulator().name(), engine.settings().simCommand(), auth)
                  .register(config.routes);
              new TraceRoutes(engine.traces(), engine.catalog(), auth).register(config.routes);
              new RunRoutes(
                      runs,
                      auth,
                      clock,
                      settings.maxJsonBytes(),
                      engine.queued(),
                      engine.storage()::storage)
                  .register(config.routes);
              new StorageRoutes(engine.storage(), auth, settings.maxJsonBytes())
                  .register(config.routes);
              events.register(config.routes);
              new SimRoutes(
                      runs,
                      engine.reports(),
                      auth,
                      metrics,
                      clock,
                      settings.maxJsonBytes(),
                      settings.maxChunkBytes())
                  .register(config.routes);
              new OutputRoutes(
                      runs, engine.results(), engine.catalog(), auth, engine::entryConfigFiles)
                  .register(config.routes);
              new ExportRoutes(engine.results(), auth).register(config.routes);
              new HardwareRoutes(runs, engine.results(), engine.hardware(), auth)
                  .register(config.routes);
              new CompareRoutes(runs, engine.results(), auth).register(config.routes);
              new TraceFetchRoutes(runs, engine.traces(), auth).register(config.routes);
              new UserRoutes(engine.users(), auth, settings.maxJsonBytes()).register(config.routes);
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
    return new HttpApi(app, events, metrics, BindAddress.url(address, app.port()));
  }

  /**
   * Where a client on this machine reaches the server, {@code http://127.0.0.1:8080}: the bound
   * address, or loopback when bound to every address.
   */
  public String url() {
    return url;
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
