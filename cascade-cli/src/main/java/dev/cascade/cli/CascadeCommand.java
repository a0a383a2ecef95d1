package dev.cascade.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cascade} command: one small class per subcommand, each calling the public API. */
@Command(
    name = "cascade",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Run captured Accel-Sim GPU traces on other GPU configs.",
    subcommands = {
      CommandLine.HelpCommand.class,
      ServeCommand.class,
      RunCommand.class,
      ConfigsCommand.class,
      StatsCommand.class,
      TraceInfoCommand.class,
      PostprocessCommand.class,
      EmulateCommand.class,
      SimAgentCommand.class,
      TracesCommand.class,
      RunsCommand.class,
    })
public final class CascadeCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** A command line with Cascade's exit codes: 0 ok, 1 failure, 2 usage. */
  public static CommandLine newCommandLine() {
    CommandLine commandLine = new CommandLine(new CascadeCommand());
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    return commandLine;
  }

  public static void main(String[] args) {
    System.exit(newCommandLine().execute(args));
  }
}
