package dev.cascade.cli;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception escaping a subcommand into one line on stderr and the exit code of its {@link
 * ErrorCode} (2 for a usage error such as an invalid value, 1 for a failure), so a user sees what
 * failed and why instead of a stack trace, and the same error exits the same way from every
 * command, embedded or answered by a server (the client turns a refusal into the same {@link
 * CascadeException}). {@code CASCADE_DEBUG=1} shows the trace too.
 */
final class FailureHandler implements IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, ParseResult parseResult) {
    commandLine.getErr().println("cascade: " + message(exception));
    if (CliEnvironment.debug()) {
      exception.printStackTrace(commandLine.getErr());
    }
    return errorCode(exception).exitCode();
  }

  /**
   * What failed, in one line: the message alone. Messages are written for people and name what they
   * concern in words ({@code count for "SM90_H100" must be ...}); the field path beside it ({@code
   * entries[0].count}) is for programs, and the web UI shows the same words.
   */
  static String message(Exception exception) {
    return exception.getMessage() == null ? exception.toString() : exception.getMessage();
  }

  /**
   * The error's code: a {@link CascadeException}'s own, whether Cascade ran embedded or a server
   * refused (the client gives the server's code); {@link ErrorCode#INTERNAL} for anything else.
   */
  static ErrorCode errorCode(Throwable exception) {
    return exception instanceof CascadeException cascade ? cascade.code() : ErrorCode.INTERNAL;
  }
}
