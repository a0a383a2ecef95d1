package dev.cascade.cli;

import dev.cascade.core.User;
import dev.cascade.core.json.UsersJson;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cascade users list}: every user, their role and whether their token still works. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "List the server's users: name, role, who added them and when, and whether their token"
          + " works (active, expired, revoked by whom and when). Tokens are never shown.",
      "Exit code 0, 1 when the server refused (not an admin) or could not be asked."
    })
final class UsersListCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Option(names = "--json", description = "Print the users as the API's JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    return api.call(
        client -> {
          List<User> users = client.users();
          return Printed.answer(
              spec, json, UsersJson.writeUserList(users), out -> print(out, users, Instant.now()));
        });
  }

  static void print(PrintWriter out, List<User> users, Instant now) {
    if (users.isEmpty()) {
      out.println("No users yet: add one with cascade users add NAME --role ROLE");
      return;
    }
    TextTable table = new TextTable("NAME", "ROLE", "ADDED", "BY", "TOKEN");
    for (User user : users) {
      table.row(
          user.name(),
          user.role().wireName(),
          user.createdAt(),
          user.createdBy(),
          status(user, now));
    }
    table.print(out);
  }

  static String status(User user, Instant now) {
    if (user.revokedAt() != null) {
      return "revoked " + user.revokedAt() + " by " + user.revokedBy();
    }
    if (!user.activeAt(now)) {
      return "expired " + user.expiresAt();
    }
    return user.expires().map(at -> "active until " + at).orElse("active");
  }
}
