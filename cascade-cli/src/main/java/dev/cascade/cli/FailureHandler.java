package dev.cascade.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception escaping a subcommand into one line on stderr and exit code 1, so a user sees
 * what failed and why instead of a stack trace. {@code CASCADE_DEBUG=1} shows the trace too.
 */
final class FailureHandler implements IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, ParseResult parseResult) {
    String message = exception.getMessage() == null ? exception.toString() : exception.getMessage();
    commandLine.getErr().println("cascade: " + message);
    if ("1".equals(System.getenv("CASCADE_DEBUG"))) {
      exception.printStackTrace(commandLine.getErr());
    }
    return 1;
  }
}
