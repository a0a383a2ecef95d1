package dev.cascade.core;

import dev.cascade.core.internal.http.HttpApi;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cascade over HTTP: the user API and server-sent events (DESIGN.md section 8) and the endpoints
 * sims report to (section 7), on Javalin with virtual threads. {@code docs/api.md} describes every
 * endpoint.
 *
 * <pre>{@code
 * try (Cascade cascade = Cascade.builder().dataDir(dir).build().start();
 *     CascadeServer server = CascadeServer.start(cascade, ServerSettings.defaults())) {
 *   System.out.println("listening on " + server.url());
 *   ...
 * }
 * }</pre>
 *
 * <p>It listens on 127.0.0.1 unless told otherwise. Without a token it listens on loopback only: it
 * refuses to start on any other address, since anyone who can reach it could then run and cancel
 * sims.
 */
public final class CascadeServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CascadeServer.class);

  private final HttpApi api;
  private final ServerSettings settings;
  private final String url;

  private CascadeServer(HttpApi api, ServerSettings settings, String url) {
    this.api = api;
    this.settings = settings;
    this.url = url;
  }

  /**
   * Starts serving {@code cascade}, which must be started, as {@code settings} say.
   *
   * @throws CascadeException {@code invalid} (field {@code bind}) when the address is not loopback
   *     and there is no token, or the address cannot be resolved; {@code unavailable} (field {@code
   *     port}) when the port is taken
   */
  public static CascadeServer start(Cascade cascade, ServerSettings settings) {
    Objects.requireNonNull(cascade, "cascade");
    Objects.requireNonNull(settings, "settings");
    InetAddress address = requireSafeBind(settings);
    HttpApi api = HttpApi.start(cascade, settings);
    String host =
        address.isAnyLocalAddress()
            ? "127.0.0.1"
            : address instanceof Inet6Address
                ? "[" + address.getHostAddress() + "]"
                : settings.bind();
    String url = "http://" + host + ":" + api.port();
    log.info(
        "Cascade API listening on {} (bound to {}, {})",
        url,
        settings.bind(),
        settings.hasToken() ? "token required" : "no token: loopback only");
    return new CascadeServer(api, settings, url);
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
    return url;
  }

  public ServerSettings settings() {
    return settings;
  }

  /** Every route the server answers, as {@code METHOD path}. */
  public List<String> routes() {
    return api.routes();
  }

  /** Ends open event streams and stops listening. The Cascade it serves is left running. */
  @Override
  public void close() {
    api.close();
    log.info("Cascade API on {} stopped", url);
  }

  private static InetAddress requireSafeBind(ServerSettings settings) {
    InetAddress address;
    try {
      address = InetAddress.getByName(settings.bind());
    } catch (UnknownHostException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "cannot listen on \""
              + settings.bind()
              + "\": no such address; use an IP address such as 127.0.0.1",
          "bind",
          e);
    }
    if (!address.isLoopbackAddress() && !settings.hasToken()) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "refusing to listen on \""
              + settings.bind()
              + "\" without a token: anyone who can reach it could run and cancel sims. Set"
              + " CASCADE_TOKEN (or ServerSettings.withToken) to a secret, or listen on 127.0.0.1",
          "bind");
    }
    return address;
  }
}
