package dev.cascade.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A usage error as the line that matters and where to read more, instead of picocli's message above
 * the command's whole help: {@code cascade run: the count in "SM90_H100:x" must be a whole number
 * ...}, picocli's "did you mean" for an unknown option, then {@code See 'cascade run --help'.};
 * exit 2. A value refused by a converter is said in the converter's words, without picocli's
 * "Invalid value for positional parameter at index 1..* (CONFIG[:COUNT]):" before them.
 */
final class OneLineUsageError implements IParameterExceptionHandler {

  @Override
  public int handleParseException(ParameterException exception, String[] args) {
    CommandLine commandLine = exception.getCommandLine();
    PrintWriter err = commandLine.getErr();
    String name = commandLine.getCommandSpec().qualifiedName();
    err.println(name + ": " + message(exception));
    if (exception instanceof UnmatchedArgumentException unmatched) {
      UnmatchedArgumentException.printSuggestions(unmatched, err);
    }
    err.println("See '" + name + " --help'.");
    err.flush();
    return commandLine.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The converter's own words for a refused value; picocli's message otherwise. */
  static String message(ParameterException exception) {
    if (exception.getCause() instanceof TypeConversionException conversion
        && conversion.getMessage() != null) {
      return conversion.getMessage();
    }
    return exception.getMessage();
  }
}
