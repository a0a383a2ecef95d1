package dev.cascade.cli;

import dev.cascade.core.ErrorCode;

/**
 * {@code cascade traces push} cannot go on: the message says what failed and what to do, and the
 * {@link ErrorCode} decides the exit code as for every command (2 for a usage or setup error, 1 for
 * a failure).
 */
final class PushException extends RuntimeException {

  private final ErrorCode code;

  PushException(ErrorCode code, String message) {
    this(code, message, null);
  }

  PushException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  int exitCode() {
    return code.exitCode();
  }
}
