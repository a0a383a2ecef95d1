package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Role;
import dev.cascade.core.User;
import dev.cascade.core.internal.run.SimReports;
import dev.cascade.core.internal.users.UserService;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Who may call what. A user endpoint takes {@code Authorization: Bearer <token>}: the server's own
 * token ({@code CASCADE_TOKEN}), which is the local admin {@code local}, or a user's token ({@code
 * cascade users add}), which carries the user's {@link Role}. A route needs a role (reads need
 * {@code viewer}, changes {@code submitter}, users {@code admin}); a caller without it is 403 with
 * the role needed in words. No token, or one that is not valid (unknown, revoked, expired), is 401.
 *
 * <p>A server without a token (it then listens on loopback only) takes every request as the local
 * admin, as before users existed; a user's valid token still names its user there (so runs are
 * theirs and {@code GET /api/me} says who), but roles hold only on a server with a token.
 *
 * <p>Sim endpoints need the sim's own token (given to its agent on standard input), valid for that
 * sim only; a sim token is no user's, so it reaches no user endpoint (401).
 */
final class Auth {

  static final String CHALLENGE = "Bearer realm=\"cascade\"";

  private static final String CALLER = "cascade.caller";

  private final byte[] serverToken;
  private final UserService users;
  private final SimReports reports;

  /**
   * @param serverToken the server's own token, the local admin's; null when none is required
   */
  Auth(String serverToken, UserService users, SimReports reports) {
    this.serverToken = serverToken == null ? null : serverToken.getBytes(StandardCharsets.US_ASCII);
    this.users = users;
    this.reports = reports;
  }

  /** {@code handler}, for any valid caller: reads. */
  Handler viewer(Handler handler) {
    return ctx -> {
      authenticate(ctx);
      handler.handle(ctx);
    };
  }

  /**
   * {@code handler}, for callers with {@code role} or above; {@code doing} names the act in a
   * refusal ({@code creating a run needs the submitter role; you are bob (viewer)}).
   */
  Handler needs(Role role, String doing, Handler handler) {
    return ctx -> {
      require(authenticate(ctx), role, doing);
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

  /** The caller of a request that passed {@link #viewer} or {@link #needs}. */
  static Caller caller(Context ctx) {
    Caller caller = ctx.attribute(CALLER);
    if (caller == null) {
      throw new IllegalStateException("the route " + ctx.path() + " was not behind Auth");
    }
    return caller;
  }

  /**
   * Refuses (403) a caller acting on what {@code owner} owns unless it is theirs or they are an
   * admin; {@code doing} names the act on another's ({@code cancelling another user's run}).
   */
  static void requireOwnerOrAdmin(Context ctx, String owner, String doing) {
    Caller caller = caller(ctx);
    if (!caller.name().equals(owner)) {
      require(caller, Role.ADMIN, doing);
    }
  }

  /** 403 unless {@code caller} has {@code role}. */
  static void require(Caller caller, Role role, String doing) {
    if (!caller.role().includes(role)) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          doing
              + " needs the "
              + role.wireName()
              + " role; you are "
              + caller.described()
              + ". Ask an admin of this server (cascade users add)",
          "Authorization");
    }
  }

  /** Who the request comes from, remembered on it; 401 when no valid token is presented. */
  Caller authenticate(Context ctx) {
    Caller known = ctx.attribute(CALLER);
    if (known != null) {
      return known;
    }
    Caller caller = identify(ctx);
    ctx.attribute(CALLER, caller);
    return caller;
  }

  private Caller identify(Context ctx) {
    Caller local = new Caller(UserService.LOCAL, Role.ADMIN);
    String header = ctx.header("Authorization");
    if (serverToken == null) {
      // No token required: a user's valid token names its user; anything else is the local admin.
      return bearerIfWellFormed(header)
          .flatMap(users::byToken)
          .filter(user -> user.activeAt(users.now()))
          .map(user -> new Caller(user.name(), user.role()))
          .orElse(local);
    }
    String presented = bearer(ctx, "the server's token (CASCADE_TOKEN) or a user's token");
    if (MessageDigest.isEqual(serverToken, presented.getBytes(StandardCharsets.US_ASCII))) {
      return local;
    }
    Optional<User> user = users.byToken(presented);
    if (user.isEmpty()) {
      throw unauthorized(
          ctx,
          "the bearer token is not this server's token nor any user's; use the CASCADE_TOKEN the"
              + " server was started with, or a token from cascade users add");
    }
    User found = user.get();
    Instant now = users.now();
    if (found.revokedAt() != null) {
      throw unauthorized(
          ctx,
          "the token of user \""
              + found.name()
              + "\" was revoked at "
              + found.revokedAt()
              + " by "
              + found.revokedBy()
              + "; ask an admin for a new one");
    }
    if (!found.activeAt(now)) {
      throw unauthorized(
          ctx,
          "the token of user \""
              + found.name()
              + "\" expired at "
              + found.expiresAt()
              + "; ask an admin for a new one");
    }
    return new Caller(found.name(), found.role());
  }

  void requireSim(Context ctx, String simId) {
    String presented = bearer(ctx, "the sim's own token");
    if (!reports.isSimToken(simId, presented)) {
      throw new CascadeException(
          ErrorCode.FORBIDDEN,
          "the bearer token is not the token of sim \""
              + simId
              + "\"; a sim token is valid for its own sim only",
          "Authorization");
    }
  }

  private static CascadeException unauthorized(Context ctx, String message) {
    ctx.header("WWW-Authenticate", CHALLENGE);
    return new CascadeException(ErrorCode.UNAUTHORIZED, message, "Authorization");
  }

  /** The bearer token of {@code header}, when it is {@code Bearer <token>}. */
  private static Optional<String> bearerIfWellFormed(String header) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String trimmed = header.strip();
    int space = trimmed.indexOf(' ');
    if (space < 0
        || !trimmed.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")
        || trimmed.substring(space + 1).isBlank()) {
      return Optional.empty();
    }
    return Optional.of(trimmed.substring(space + 1).strip());
  }

  /** The bearer token of the request; 401 with a challenge when there is none. */
  private static String bearer(Context ctx, String what) {
    String header = ctx.header("Authorization");
    if (header == null || header.isBlank()) {
      throw unauthorized(
          ctx, "this endpoint needs " + what + " as \"Authorization: Bearer <token>\"");
    }
    return bearerIfWellFormed(header)
        .orElseThrow(
            () ->
                unauthorized(
                    ctx, "the Authorization header must be \"Bearer <token>\" with " + what));
  }
}
