package dev.cascade.cli;

import java.util.Map;

/**
 * The command line's environment: the one place the {@code cascade} command calls {@code
 * System.getenv}. Commands keep the map in a field that tests replace, and hand it to the readers
 * ({@code CascadeSettings}, {@code S3Credentials}, {@link ApiOptions}); none reads a variable
 * behind its caller's back.
 */
final class CliEnvironment {

  /** {@code 1}: a failure prints its stack trace too. */
  static final String DEBUG = "CASCADE_DEBUG";

  private CliEnvironment() {}

  /** The process's environment variables. */
  static Map<String, String> current() {
    return System.getenv();
  }

  /** Whether {@link #DEBUG} asks for stack traces. */
  static boolean debug() {
    return "1".equals(current().get(DEBUG));
  }
}
