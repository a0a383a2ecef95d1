package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.internal.run.SimReports;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;

/**
 * Who may call what. User endpoints need {@code Authorization: Bearer $CASCADE_TOKEN} when the
 * server has a token, and nothing when it has none (it then listens on loopback only). Sim
 * endpoints need the sim's own token, {@code Bearer $CASCADE_SIM_TOKEN}, which is valid for that
 * sim only. A missing token is 401, a wrong one 403.
 */
final class Auth {

  static final String CHALLENGE = "Bearer realm=\"cascade\"";

  private final byte[] userToken;
  private final SimReports reports;

  /**
   * @param userToken the user token; null when none is required
   */
  Auth(String userToken, SimReports reports) {
    this.userToken = userToken == null ? null : userToken.getBytes(StandardCharsets.US_ASCII);
    this.reports = reports;
  }

  /** {@code handler}, behind the user token. */
  Handler user(Handler handler) {
    return ctx -> {
      requireUser(ctx);
      handler.handle(ctx);
    };
  }

  /** {@code handler}, behind the token of the sim named by the path's {@code {id}}. */
  Handler sim(Handler handler) {
    return ctx -> {
      requireSim(ctx, ctx.pathParam("id"));
      handler.handle(ctx);
    };
  }

  void requireUser(Context ctx) {
    if (userToken == null) {
      return;
    }
    String presented = bearer(ctx, "the server's token (CASCADE_TOKEN)");
    if (!MessageDigest.isEqual(userToken, presented.getBytes(StandardCharsets.US_ASCII))) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "the bearer token is not this server's token; use the value of CASCADE_TOKEN the server"
              + " was started with",
          "Authorization");
    }
  }

  void requireSim(Context ctx, String simId) {
    String presented = bearer(ctx, "the sim's token (CASCADE_SIM_TOKEN)");
    if (!reports.isSimToken(simId, presented)) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "the bearer token is not the token of sim \""
              + simId
              + "\"; a sim token is valid for its own sim only (CASCADE_SIM_TOKEN)",
          "Authorization");
    }
  }

  /** The bearer token of the request; 401 with a challenge when there is none. */
  private static String bearer(Context ctx, String what) {
    String header = ctx.header("Authorization");
    if (header == null || header.isBlank()) {
      ctx.header("WWW-Authenticate", CHALLENGE);
      throw new CascadeException(
          ErrorCode.UNAUTHORIZED,
          "this endpoint needs " + what + " as \"Authorization: Bearer <token>\"",
          "Authorization");
    }
    String trimmed = header.strip();
    int space = trimmed.indexOf(' ');
    if (space < 0
        || !trimmed.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")
        || trimmed.substring(space + 1).isBlank()) {
      ctx.header("WWW-Authenticate", CHALLENGE);
      throw new CascadeException(
          ErrorCode.UNAUTHORIZED,
          "the Authorization header must be \"Bearer <token>\" with " + what,
          "Authorization");
    }
    return trimmed.substring(space + 1).strip();
  }
}
