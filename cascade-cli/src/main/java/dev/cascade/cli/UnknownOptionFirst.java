package dev.cascade.cli;

import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Says "Unknown option" before "Missing required parameter": in {@code cascade run demo
 * --frobnicate} the unknown option is the mistake, and the missing CONFIG:COUNT only follows from
 * it. Every error then goes to the handler it wraps ({@link OneLineUsageError}).
 */
final class UnknownOptionFirst implements IParameterExceptionHandler {

  private final IParameterExceptionHandler standard;

  UnknownOptionFirst(IParameterExceptionHandler standard) {
    this.standard = standard;
  }

  @Override
  public int handleParseException(ParameterException exception, String[] args) throws Exception {
    if (exception instanceof MissingParameterException) {
      CommandLine commandLine = exception.getCommandLine();
      Optional<String> unknown = firstUnknownOption(commandLine.getCommandSpec(), args);
      if (unknown.isPresent()) {
        exception =
            new UnmatchedArgumentException(commandLine, "Unknown option: '" + unknown.get() + "'");
      }
    }
    return standard.handleParseException(exception, args);
  }

  /** The first argument after the subcommand's name that looks like an option it does not have. */
  static Optional<String> firstUnknownOption(CommandSpec spec, String[] args) {
    boolean inCommand = false;
    boolean valueNext = false;
    for (String arg : args) {
      if (!inCommand) {
        inCommand = arg.equals(spec.name()) || List.of(spec.aliases()).contains(arg);
        continue;
      }
      if (valueNext) {
        valueNext = false;
        continue;
      }
      if (arg.equals("--")) {
        return Optional.empty();
      }
      if (arg.length() < 2 || arg.charAt(0) != '-') {
        continue;
      }
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      OptionSpec option = spec.findOption(name);
      if (option == null) {
        return Optional.of(arg);
      }
      valueNext = !arg.contains("=") && option.arity().max() > 0;
    }
    return Optional.empty();
  }
}
