package dev.cascade.cli;

import dev.cascade.core.ErrorCode;
import java.util.concurrent.Callable;
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
      DoctorCommand.class,
      StatsCommand.class,
      TraceInfoCommand.class,
      PostprocessCommand.class,
      EmulateCommand.class,
      SimAgentCommand.class,
      TracesCommand.class,
      RunsCommand.class,
      UsersCommand.class,
      GcCommand.class,
    })
public final class CascadeCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** No command named: a usage error, so the list of commands goes to stderr with exit 2. */
  @Override
  public Integer call() {
    return missingSubcommand(spec);
  }

  /**
   * What a command that only groups others ({@code cascade}, {@code cascade runs}) does when none
   * is named: its usage, which lists them, on stderr, and the usage exit code.
   */
  static int missingSubcommand(CommandLine.Model.CommandSpec spec) {
    CommandLine commandLine = spec.commandLine();
    commandLine.getErr().println(spec.qualifiedName() + ": name a command");
    commandLine.usage(commandLine.getErr());
    commandLine.getErr().flush();
    return spec.exitCodeOnInvalidInput();
  }

  /**
   * A command line with Cascade's exit codes, those of {@link ErrorCode#exitCode()}: 0 ok, 1
   * failure, 2 usage (a bad option or value, picocli's or the API's).
   */
  public static CommandLine newCommandLine() {
    CommandLine commandLine = new CommandLine(new CascadeCommand());
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    commandLine.setParameterExceptionHandler(new UnknownOptionFirst(new OneLineUsageError()));
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
