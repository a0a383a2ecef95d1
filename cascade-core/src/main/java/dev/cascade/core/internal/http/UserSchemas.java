package dev.cascade.core.internal.http;

import static dev.cascade.core.internal.http.OpenApiJson.array;
import static dev.cascade.core.internal.http.OpenApiJson.enumOf;
import static dev.cascade.core.internal.http.OpenApiJson.nullable;
import static dev.cascade.core.internal.http.OpenApiJson.object;
import static dev.cascade.core.internal.http.OpenApiJson.ref;
import static dev.cascade.core.internal.http.OpenApiJson.string;
import static dev.cascade.core.internal.http.OpenApiJson.time;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The schemas of users, the caller ({@code GET /api/me}) and who did what to a run. */
final class UserSchemas {

  private UserSchemas() {}

  static void addTo(Map<String, Object> schemas) {
    Map<String, Object> user = new LinkedHashMap<>();
    user.put("name", string("The user's name, also the owner of the runs they create"));
    user.put("role", role());
    user.put("created_at", time());
    user.put("created_by", string("Who added the user"));
    user.put(
        "expires_at", nullable(described(time(), "When the token stops working; null: never")));
    user.put(
        "revoked_at", nullable(described(time(), "When the token was revoked; null: it was not")));
    user.put("revoked_by", nullable(string("Who revoked it")));
    List<String> required = List.of("name", "role", "created_at", "created_by");
    schemas.put("User", object(required, user));
    schemas.put("UserList", object(List.of("users"), "users", array(ref("User"))));
    Map<String, Object> created = new LinkedHashMap<>(user);
    created.put("token", string("The user's token, shown this once: only its hash is kept"));
    schemas.put(
        "NewUser", object(List.of("name", "role", "created_at", "created_by", "token"), created));
    schemas.put(
        "NewUserRequest",
        object(
            List.of("name", "role"),
            "name",
            string("1 to 64 of A-Z a-z 0-9 . _ @ -; not local"),
            "role",
            role(),
            "expires_at",
            nullable(
                described(
                    time(), "When the token stops working (ISO-8601); null or absent: never"))));
    schemas.put(
        "Me",
        object(
            List.of("name", "role"),
            "name",
            string("The caller: a user, or local (the server's own token, or no token needed)"),
            "role",
            role()));
    schemas.put(
        "RunAction",
        object(
            List.of("action", "user", "at"),
            "action",
            enumOf("cancel", "retry", "rerun"),
            "user",
            string("Who asked"),
            "at",
            time(),
            "new_run_id",
            nullable(string("For a rerun, the run it made"))));
  }

  private static Map<String, Object> described(Map<String, Object> schema, String description) {
    Map<String, Object> copy = new LinkedHashMap<>(schema);
    copy.put("description", description);
    return copy;
  }

  private static Map<String, Object> role() {
    return enumOf("viewer", "submitter", "admin");
  }
}
