package dev.cascade.cli;

import dev.cascade.core.ErrorCode;
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

  /**
   * A command line with Cascade's exit codes, those of {@link ErrorCode#exitCode()}: 0 ok, 1
   * failure, 2 usage (a bad option or value, picocli's or the API's).
   */
  public static CommandLine newCommandLine() {
    CommandLine commandLine = new CommandLine(new CascadeCommand());
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setParameterExceptionHandler(
        new UnknownOptionFirst(commandLine.getParameterExceptionHandler()));
    exitOnInvalidInputAsInvalid(commandLine);
    return commandLine;
  }

  /** Picocli's usage errors exit as {@link ErrorCode#INVALID} does, in every subcommand. */
  private static void exitOnInvalidInputAsInvalid(CommandLine commandLine) {
    commandLine.getCommandSpec().exitCodeOnInvalidInput(ErrorCode.INVALID.exitCode());
    commandLine.getSubcommands().values().forEach(CascadeCommand::exitOnInvalidInputAsInvalid);
  }

  public static void main(String[] args) {
    System.exit(newCommandLine().execute(args));
  }
}
