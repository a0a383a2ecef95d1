package dev.cascade.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link CascadeServer} listens. Immutable; start from {@link #defaults()} and change what
 * you need with the {@code withX} methods, each of which checks its value at once.
 *
 * @param bind the address to listen on; {@code 127.0.0.1} by default. Any address that is not
 *     loopback needs a {@code token}
 * @param port the TCP port; 0 picks a free one ({@link CascadeServer#port()} tells which)
 * @param token the user bearer token every {@code /api} call except the sim endpoints must present
 *     ({@code CASCADE_TOKEN}, read by {@link CascadeSettings#tokenFromEnvironment}); null for none,
 *     which is allowed on loopback only
 * @param maxJsonBytes the largest JSON request body accepted (64 KiB); larger ones get 413
 * @param maxChunkBytes the largest output chunk a sim may {@code PUT} (8 MiB); larger ones get 413
 * @param sseKeepAlive how often an idle event stream gets a {@code : keepalive} comment (15 s), so
 *     proxies keep it open and a client that went away is noticed
 * @param uploads where this Cascade takes trace uploads, told to clients at {@code GET
 *     /api/uploads} so {@code cascade traces push} needs only the server's URL; null when it runs
 *     no upload endpoint
 */
public record ServerSettings(
    String bind,
    int port,
    String token,
    int maxJsonBytes,
    int maxChunkBytes,
    Duration sseKeepAlive,
    TraceUploads uploads) {

  public static final String DEFAULT_BIND = "127.0.0.1";
  public static final int DEFAULT_PORT = 8080;
  public static final int DEFAULT_MAX_JSON_BYTES = 64 * 1024;
  public static final int DEFAULT_MAX_CHUNK_BYTES = 8 * 1024 * 1024;
  public static final Duration DEFAULT_SSE_KEEP_ALIVE = Duration.ofSeconds(15);

  public ServerSettings {
    Objects.requireNonNull(bind, "bind");
    if (bind.isBlank()) {
      throw new IllegalArgumentException(
          "bind must be an address to listen on, such as 127.0.0.1; got a blank one");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "port must be 0 to 65535 (0 picks a free one); got " + port);
    }
    if (token != null && token.isBlank()) {
      token = null;
    }
    if (token != null && !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException(
          "the token must be printable ASCII without spaces, as it travels in an HTTP header");
    }
    if (maxJsonBytes < 1024) {
      throw new IllegalArgumentException("maxJsonBytes must be at least 1024; got " + maxJsonBytes);
    }
    if (maxChunkBytes < 1024) {
      throw new IllegalArgumentException(
          "maxChunkBytes must be at least 1024; got " + maxChunkBytes);
    }
    Objects.requireNonNull(sseKeepAlive, "sseKeepAlive");
    if (sseKeepAlive.isNegative() || sseKeepAlive.isZero()) {
      throw new IllegalArgumentException("sseKeepAlive must be positive; got " + sseKeepAlive);
    }
  }

  /** Loopback on port 8080, no token, 64 KiB JSON bodies, 8 MiB chunks, keep-alive every 15 s. */
  public static ServerSettings defaults() {
    return new ServerSettings(
        DEFAULT_BIND,
        DEFAULT_PORT,
        null,
        DEFAULT_MAX_JSON_BYTES,
        DEFAULT_MAX_CHUNK_BYTES,
        DEFAULT_SSE_KEEP_ALIVE,
        null);
  }

  public ServerSettings withBind(String bind) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  public ServerSettings withPort(int port) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  /** A null or blank token means none. */
  public ServerSettings withToken(String token) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  public ServerSettings withMaxJsonBytes(int maxJsonBytes) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  public ServerSettings withMaxChunkBytes(int maxChunkBytes) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  public ServerSettings withSseKeepAlive(Duration sseKeepAlive) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  /** Where uploads go, as {@code GET /api/uploads} tells clients; null for none. */
  public ServerSettings withUploads(TraceUploads uploads) {
    return new ServerSettings(
        bind, port, token, maxJsonBytes, maxChunkBytes, sseKeepAlive, uploads);
  }

  /** True when a user token is required on the API. */
  public boolean hasToken() {
    return token != null;
  }

  @Override
  public String toString() {
    return "ServerSettings[bind="
        + bind
        + ", port="
        + port
        + ", token="
        + (token == null ? "none" : "(set)")
        + ", maxJsonBytes="
        + maxJsonBytes
        + ", maxChunkBytes="
        + maxChunkBytes
        + ", sseKeepAlive="
        + sseKeepAlive
        + ", uploads="
        + uploads
        + "]";
  }
}
