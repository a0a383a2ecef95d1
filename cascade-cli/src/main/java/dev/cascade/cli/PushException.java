package dev.cascade.cli;

/**
 * {@code cascade traces push} cannot go on: the message says what failed and what to do, and the
 * exit code is 2 for a usage or setup error, 1 for a failure.
 */
final class PushException extends RuntimeException {

  private final int exitCode;

  PushException(int exitCode, String message) {
    this(exitCode, message, null);
  }

  PushException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
