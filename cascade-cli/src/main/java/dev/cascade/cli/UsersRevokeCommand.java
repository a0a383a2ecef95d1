package dev.cascade.cli;

import dev.cascade.core.User;
import dev.cascade.core.json.UsersJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade users revoke NAME}: the user's token stops working at once. */
@Command(
    name = "revoke",
    mixinStandardHelpOptions = true,
    description = {
      "Revoke a user's token: their next request is refused (401). The user stays listed, with"
          + " who revoked them and when, and their runs stay theirs. Revoking twice is harmless.",
      "Exit code 0 when revoked, 1 when the server refused (not an admin), 2 when there is no"
          + " such user."
    })
final class UsersRevokeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "NAME", description = "The user's name.")
  String name;

  @Option(names = "--json", description = "Print the user as the API's JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    return api.call(
        client -> {
          User user = client.revokeUser(name);
          return Printed.answer(
              spec,
              json,
              UsersJson.writeUser(user),
              out ->
                  out.println(
                      "Revoked "
                          + user.name()
                          + " ("
                          + user.role().wireName()
                          + "): "
                          + UsersListCommand.status(user, java.time.Instant.now())));
        });
  }
}
