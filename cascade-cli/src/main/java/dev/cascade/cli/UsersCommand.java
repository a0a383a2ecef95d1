package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cascade users ...}: the users of a shared Cascade server, for its admins: add one (its
 * token printed once), list them, revoke one.
 */
@Command(
    name = "users",
    mixinStandardHelpOptions = true,
    description = {
      "The users of a running Cascade server ($CASCADE_URL, token $CASCADE_TOKEN, an admin's):"
          + " add one with a role (viewer, submitter, admin), list them, revoke one."
    },
    subcommands = {UsersAddCommand.class, UsersListCommand.class, UsersRevokeCommand.class})
final class UsersCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return CascadeCommand.missingSubcommand(spec);
  }
}
