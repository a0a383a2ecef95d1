package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web UI's files, served from the jar with no token (they hold no data; the API they call
 * does): {@code GET /} is {@code index.html} and {@code GET /ui/{file}} the scripts and styles
 * beside it in {@code dev/cascade/core/ui/}. Screens are hash routes ({@code /#/runs/r_...}), so
 * the server never needs to fall back to the page for other paths: anything else stays the API's
 * JSON 404.
 *
 * <p>Files are read once and kept; each answer carries an {@code ETag} and {@code Cache-Control:
 * no-cache}, so a browser revalidates and gets a 304 until the jar changes. The page is locked down
 * with a content security policy that allows only this server: the UI fetches nothing from anywhere
 * else.
 */
final class StaticFiles {

  /** The routes this class registers, as {@link HttpApi#routes()} lists them. */
  static final List<String> ROUTES = List.of("GET /", "GET /ui/{file}");

  private static final String FOLDER = "dev/cascade/core/ui/";

  /** Plain file names only: no folders, no dot files, so no path leaves the UI's folder. */
  private static final Pattern NAME =
      Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}\\.(html|js|css|svg)");

  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml");

  private static final String POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  private final ClassLoader loader = StaticFiles.class.getClassLoader();
  private final Map<String, UiFile> files = new ConcurrentHashMap<>();

  void register(RoutesConfig routes) {
    routes.get("/", ctx -> send(ctx, "index.html"));
    routes.get("/ui/{file}", ctx -> send(ctx, ctx.pathParam("file")));
  }

  private void send(Context ctx, String name) {
    UiFile file =
        find(name)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "the web UI has no file \""
                            + (name.length() > 80 ? name.substring(0, 80) + "..." : name)
                            + "\"; open / for the UI",
                        null));
    ctx.header("Cache-Control", "no-cache");
    ctx.header("ETag", file.etag());
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    if (name.endsWith(".html")) {
      ctx.header("Content-Security-Policy", POLICY);
      ctx.header("X-Frame-Options", "DENY");
    }
    String ifNoneMatch = ctx.header("If-None-Match");
    if (ifNoneMatch != null && ifNoneMatch.contains(file.etag())) {
      ctx.status(304);
      return;
    }
    ctx.status(200).contentType(file.contentType()).result(file.bytes());
  }

  private Optional<UiFile> find(String name) {
    if (!NAME.matcher(name).matches()) {
      return Optional.empty();
    }
    UiFile known = files.get(name);
    if (known != null) {
      return Optional.of(known);
    }
    try (InputStream in = loader.getResourceAsStream(FOLDER + name)) {
      if (in == null) {
        return Optional.empty();
      }
      byte[] bytes = in.readAllBytes();
      String extension = name.substring(name.lastIndexOf('.') + 1);
      UiFile file = new UiFile(bytes, TYPES.get(extension), etag(bytes));
      files.put(name, file);
      return Optional.of(file);
    } catch (IOException e) {
      throw new UncheckedIOException("the web UI's file " + name + " cannot be read", e);
    }
  }

  private static String etag(byte[] bytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private record UiFile(byte[] bytes, String contentType, String etag) {}
}
