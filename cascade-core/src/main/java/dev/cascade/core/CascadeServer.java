package dev.cascade.core;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.http.HttpApi;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server a {@link Cascade} started ({@link Cascade#server()}): the user API and
 * server-sent events (DESIGN.md section 8), the endpoints sims report to (section 7) and the web
 * UI, on Javalin with virtual threads. {@code docs/api.md} describes every endpoint. Ask for one
 * with {@link CascadeSettings.Builder#server(ServerSettings)}.
 *
 * <p>It listens on 127.0.0.1 unless told otherwise. Without a token it listens on loopback only: it
 * refuses to start on any other address, since anyone who can reach it could then run and cancel
 * sims.
 */
public final class CascadeServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CascadeServer.class);

  private final HttpApi api;
  private final ServerSettings settings;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Serves {@code engine}'s API with {@code settings}: the facade's one way into the HTTP layer.
   */
  static CascadeServer start(Engine engine, ServerSettings settings) {
    return new CascadeServer(HttpApi.start(engine, settings), settings);
  }

  CascadeServer(HttpApi api, ServerSettings settings) {
    this.api = api;
    this.settings = settings;
    log.info(
        "Cascade API listening on {} (bound to {}, {})",
        api.url(),
        settings.bind(),
        settings.hasToken() ? "token required" : "no token: loopback only");
  }

  /** The port the server listens on (the one picked when the settings asked for 0). */
  public int port() {
    return api.port();
  }

  /**
   * Where a client on this machine reaches the server, {@code http://127.0.0.1:8080}: the bound
   * address, or loopback when bound to every address.
   */
  public String url() {
    return api.url();
  }

  public ServerSettings settings() {
    return settings;
  }

  /** Every route the server answers, as {@code METHOD path}. */
  public List<String> routes() {
    return api.routes();
  }

  /** Ends open event streams and stops listening. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    api.close();
    log.info("Cascade API on {} stopped", api.url());
  }
}
