package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.json.ApiJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.MethodNotAllowedResponse;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns every failure into the API's error body, {@code {"error": {"code", "message", "field"}}},
 * with the status its code stands for: {@link CascadeException} by its {@link ErrorCode}, an {@link
 * IllegalArgumentException} from a value's constructor as 422, Javalin's own 404 and 405, and what
 * Jetty refuses before Javalin sees it (a malformed request line, headers too large). An unexpected
 * exception is still answered, as 500 {@code internal}, and logged with its stack trace.
 */
final class ErrorMapping {

  private static final Logger log = LoggerFactory.getLogger(ErrorMapping.class);

  private ErrorMapping() {}

  static void register(RoutesConfig routes) {
    routes.exception(CascadeException.class, (e, ctx) -> send(ctx, e));
    routes.exception(
        IllegalArgumentException.class,
        (e, ctx) -> send(ctx, 422, ErrorCode.INVALID.wireName(), e.getMessage(), null));
    routes.exception(
        MethodNotAllowedResponse.class,
        (e, ctx) -> {
          String allowed = String.join(", ", e.getDetails().values()).toUpperCase(Locale.ROOT);
          if (!allowed.isEmpty()) {
            ctx.header("Allow", allowed);
          }
          send(
              ctx,
              405,
              "method_not_allowed",
              ctx.method()
                  + " is not allowed on "
                  + ctx.path()
                  + (allowed.isEmpty() ? "" : "; use " + allowed),
              null);
        });
    routes.exception(
        HttpResponseException.class,
        (e, ctx) -> {
          if (e.getStatus() == 404) {
            send(
                ctx,
                404,
                ErrorCode.NOT_FOUND.wireName(),
                "no endpoint "
                    + ctx.method()
                    + " "
                    + ctx.path()
                    + "; GET /api/openapi.json lists them",
                null);
          } else {
            send(ctx, e.getStatus(), codeFor(e.getStatus()), e.getMessage(), null);
          }
        });
    routes.exception(
        Exception.class,
        (e, ctx) -> {
          log.error("{} {} failed unexpectedly", ctx.method(), ctx.path(), e);
          send(
              ctx,
              500,
              ErrorCode.INTERNAL.wireName(),
              "the server failed unexpectedly; its log has the details",
              null);
        });
  }

  static void send(Context ctx, CascadeException e) {
    send(ctx, e.code().httpStatus(), e.code().wireName(), e.getMessage(), e.field());
  }

  static void send(Context ctx, int status, String code, String message, String field) {
    if (ctx.res().isCommitted()) {
      // A streamed answer had begun; the client sees it cut short.
      return;
    }
    if ("CONNECT".equalsIgnoreCase(ctx.req().getMethod())) {
      // A CONNECT's client expects a tunnel after the answer: end the connection instead.
      ctx.header("Connection", "close");
    }
    Json.send(ctx, status, body(code, message, field));
  }

  static Map<String, Object> body(String code, String message, String field) {
    return ApiJson.writeError(code, message, field);
  }

  static String codeFor(int status) {
    for (ErrorCode code : ErrorCode.values()) {
      if (code.httpStatus() == status) {
        return code.wireName();
      }
    }
    return switch (status) {
      case 405 -> "method_not_allowed";
      case 408 -> "request_timeout";
      case 411 -> "length_required";
      case 414 -> "uri_too_long";
      case 415 -> "unsupported_media_type";
      case 431 -> "headers_too_large";
      case 505 -> "http_version_not_supported";
      default -> status >= 500 ? ErrorCode.INTERNAL.wireName() : ErrorCode.BAD_REQUEST.wireName();
    };
  }

  /**
   * Jetty's handler for what it refuses itself (bad URIs, ambiguous paths, oversized headers): the
   * same JSON error body instead of an HTML page.
   */
  static final class JettyErrors extends ErrorHandler {

    @Override
    protected void generateResponse(
        Request request,
        Response response,
        int status,
        String message,
        Throwable cause,
        Callback callback) {
      byte[] body = jettyBody(status, message);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, Json.CONTENT_TYPE);
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
      response.write(true, ByteBuffer.wrap(body), callback);
    }

    private static byte[] jettyBody(int status, String message) {
      int code = status < 400 ? 500 : status;
      String text =
          message == null || message.isBlank()
              ? "the request was refused (HTTP " + code + ")"
              : "the request was refused: " + message;
      return Json.bytes(body(codeFor(code), text, null));
    }
  }
}
