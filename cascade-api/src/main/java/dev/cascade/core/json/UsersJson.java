package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.NewUser;
import dev.cascade.core.Role;
import dev.cascade.core.RunAction;
import dev.cascade.core.User;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Users and who did what, for server and client: {@code GET /api/users} ({@code {"users": [...]}}),
 * {@code POST /api/users} (the user and its {@code token}, shown once), {@code GET /api/me} ({@code
 * {"name", "role"}}), and a run's {@code actions} ({@code {"action", "user", "at", "new_run_id"}}).
 */
public final class UsersJson {

  private UsersJson() {}

  /**
   * {@code {"name", "role", "created_at", "created_by", "expires_at", "revoked_at", "revoked_by"}}.
   */
  public static Map<String, Object> writeUser(User user) {
    Map<String, Object> wire = new LinkedHashMap<>();
    wire.put("name", user.name());
    wire.put("role", user.role().wireName());
    wire.put("created_at", ApiJson.text(user.createdAt()));
    wire.put("created_by", user.createdBy());
    wire.put("expires_at", user.expiresAt() == null ? null : ApiJson.text(user.expiresAt()));
    wire.put("revoked_at", user.revokedAt() == null ? null : ApiJson.text(user.revokedAt()));
    wire.put("revoked_by", user.revokedBy());
    return wire;
  }

  /** A user a server described; an {@link IllegalArgumentException} naming a bad field. */
  public static User readUser(JsonNode node) {
    Fields user = Fields.of(node, "a user");
    return new User(
        user.text("name"),
        Role.fromWireName(user.text("role")),
        user.time("created_at"),
        user.text("created_by"),
        user.timeOrNull("expires_at"),
        user.timeOrNull("revoked_at"),
        user.textOrNull("revoked_by"));
  }

  public static Map<String, Object> writeUserList(List<User> users) {
    return Map.of("users", users.stream().map(UsersJson::writeUser).toList());
  }

  public static List<User> readUserList(JsonNode node) {
    return Fields.of(node, "the users list").list("users", UsersJson::readUser);
  }

  /** The user with {@code "token"}: the answer of {@code POST /api/users}. */
  public static Map<String, Object> writeNewUser(NewUser created) {
    Map<String, Object> wire = writeUser(created.user());
    wire.put("token", created.token());
    return wire;
  }

  public static NewUser readNewUser(JsonNode node) {
    return new NewUser(readUser(node), Fields.of(node, "a new user").text("token"));
  }

  /** {@code {"name", "role"}}: who the caller is ({@code GET /api/me}). */
  public static Map<String, Object> writeMe(String name, Role role) {
    Map<String, Object> wire = new LinkedHashMap<>();
    wire.put("name", name);
    wire.put("role", role.wireName());
    return wire;
  }

  /** {@code {"action", "user", "at", "new_run_id"}}. */
  public static Map<String, Object> writeAction(RunAction action) {
    Map<String, Object> wire = new LinkedHashMap<>();
    wire.put("action", action.action());
    wire.put("user", action.user());
    wire.put("at", ApiJson.text(action.at()));
    wire.put("new_run_id", action.newRunId());
    return wire;
  }

  public static RunAction readAction(JsonNode node) {
    Fields action = Fields.of(node, "a run action");
    return new RunAction(
        action.text("action"),
        action.text("user"),
        action.time("at"),
        action.textOrNull("new_run_id"));
  }

  /** A run's {@code actions}, oldest first; none when the field is missing (an older server). */
  public static List<RunAction> readActions(JsonNode run) {
    return Fields.of(run, "a run").list("actions", UsersJson::readAction);
  }
}
