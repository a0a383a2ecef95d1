package dev.cascade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cascade traces ...}: the traces of a running Cascade, and uploading one to it. Each action
 * is its own subcommand class.
 */
@Command(
    name = "traces",
    mixinStandardHelpOptions = true,
    description = "Traces on a running Cascade server: upload one with push.",
    subcommands = {TracesPushCommand.class, TracesListCommand.class, TracesShowCommand.class})
final class TracesCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return CascadeCommand.missingSubcommand(spec);
  }
}
