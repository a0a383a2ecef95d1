package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Role;
import dev.cascade.core.internal.users.UserService;
import dev.cascade.core.json.UsersJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Who the caller is ({@code GET /api/me}, for anyone with a valid token) and the users of a shared
 * server ({@code /api/users}, for admins): add one (its token is in the answer, once), list them,
 * revoke one.
 */
final class UserRoutes {

  private final UserService users;
  private final Auth auth;
  private final int maxJsonBytes;

  UserRoutes(UserService users, Auth auth, int maxJsonBytes) {
    this.users = users;
    this.auth = auth;
    this.maxJsonBytes = maxJsonBytes;
  }

  void register(RoutesConfig routes) {
    routes.get("/api/me", auth.viewer(this::me));
    routes.get("/api/users", auth.needs(Role.ADMIN, "listing users", this::list));
    routes.post("/api/users", auth.needs(Role.ADMIN, "adding a user", this::add));
    routes.post(
        "/api/users/{name}/revoke", auth.needs(Role.ADMIN, "revoking a user", this::revoke));
  }

  private void me(Context ctx) {
    Caller caller = Auth.caller(ctx);
    Json.send(ctx, 200, UsersJson.writeMe(caller.name(), caller.role()));
  }

  private void list(Context ctx) {
    Json.send(ctx, 200, UsersJson.writeUserList(users.list()));
  }

  /** {@code {"name", "role", "expires_at"}}: 201 with the user and its {@code token}. */
  private void add(Context ctx) {
    JsonBody body = JsonBody.read(ctx, maxJsonBytes);
    String name = body.requiredString("name");
    Role role;
    try {
      role = Role.fromWireName(body.requiredString("role"));
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "role");
    }
    Instant expiresAt = expiresAt(body.optionalString("expires_at"));
    var created = users.add(name, role, expiresAt, Auth.caller(ctx).name());
    ctx.header("Location", "/api/users/" + name);
    Json.send(ctx, 201, UsersJson.writeNewUser(created));
  }

  private void revoke(Context ctx) {
    Json.send(
        ctx,
        200,
        UsersJson.writeUser(users.revoke(ctx.pathParam("name"), Auth.caller(ctx).name())));
  }

  private static Instant expiresAt(String text) {
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "expires_at must be an ISO-8601 time such as 2027-01-31T00:00:00Z; got \"" + text + "\"",
          "expires_at");
    }
  }
}
