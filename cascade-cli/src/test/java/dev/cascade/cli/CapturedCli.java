package dev.cascade.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/** Cascade's command line run in-process, with what it prints captured. */
final class CapturedCli {

  /** The shared fixtures folder; tests use it only behind an assumption that it exists. */
  static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));

  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  /** Runs {@code cascade args...}; returns the exit code. */
  int run(String... args) {
    return run(CascadeCommand.newCommandLine(), args);
  }

  /** Runs {@code commandLine} (Cascade's, with a test's additions) on {@code args}. */
  int run(CommandLine commandLine, String... args) {
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }
}
