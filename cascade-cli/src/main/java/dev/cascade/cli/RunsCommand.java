package dev.cascade.cli;

import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cascade runs ...}: runs on a running Cascade server, each action its own subcommand class:
 * create, list, show, watch, cancel, results, compare.
 */
@Command(
    name = "runs",
    mixinStandardHelpOptions = true,
    description = {
      "Runs on a running Cascade server ($CASCADE_URL, token $CASCADE_TOKEN): create one, list"
          + " them, show or watch one, cancel it, compare its results, compare runs."
    },
    subcommands = {
      RunsCreateCommand.class,
      RunsListCommand.class,
      RunsShowCommand.class,
      RunsWatchCommand.class,
      RunsCancelCommand.class,
      RunsRetryCommand.class,
      RunsRerunCommand.class,
      RunsResultsCommand.class,
      RunsCompareCommand.class,
    })
final class RunsCommand implements Callable<Integer> {

  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_-]{1,100}");

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return CascadeCommand.missingSubcommand(spec);
  }

  /**
   * The run id as given, when it can be one (a usage error otherwise, before any request): it goes
   * into a URL path.
   */
  static String requireRunId(CommandSpec spec, String id) {
    if (!RUN_ID.matcher(id).matches()) {
      throw new ParameterException(
          spec.commandLine(),
          "\""
              + id
              + "\" is not a run id; run ids look like r_01JD3N8X5S2Q7W4K9M6T1V0BZC (see cascade"
              + " runs list)");
    }
    return id;
  }
}
