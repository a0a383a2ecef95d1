package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Exit codes and messages of errors escaping a command, run in-process on Cascade's command line.
 */
final class FailureHandlerTest {

  private static final String NL = System.lineSeparator();

  private final CapturedCli cli = new CapturedCli();
  private final StringWriter err = cli.err;

  /** A subcommand that throws what the test gives it. */
  @Command(name = "fail")
  static final class Failing implements Callable<Integer> {
    private final Exception failure;

    Failing(Exception failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() throws Exception {
      throw failure;
    }
  }

  private int runFailing(Exception failure) {
    CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.addSubcommand("fail", new Failing(failure));
    return cli.run(commandLine, "fail");
  }

  @Test
  void invalidValue_exitsTwo_withTheMessageInWordsNotTheFieldPath() {
    int exit =
        runFailing(
            new CascadeException(
                ErrorCode.INVALID,
                "count for \"SM90_H100\" must be 1 to 64; got 65",
                "entries[0].count"));

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo("cascade: count for \"SM90_H100\" must be 1 to 64; got 65" + NL);
  }

  @Test
  void notFound_exitsTwo_withTheMessage() {
    int exit =
        runFailing(
            new CascadeException(
                ErrorCode.NOT_FOUND, "there is no run \"r_1\"; list runs to see the ids"));

    assertThat(exit).isEqualTo(2); // what the user named does not exist: usage, as a bad value
    assertThat(err.toString())
        .isEqualTo("cascade: there is no run \"r_1\"; list runs to see the ids" + NL);
  }

  @Test
  void messageStartingWithItsField_isNotPrefixedAgain() {
    int exit =
        runFailing(new CascadeException(ErrorCode.INVALID, "trace_id is required", "trace_id"));

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("cascade: trace_id is required" + NL);
  }

  @Test
  void everyErrorCode_exitsWithItsOwnExitCode() {
    for (ErrorCode code : ErrorCode.values()) {
      err.getBuffer().setLength(0);

      int exit = runFailing(new CascadeException(code, "it went " + code.wireName()));

      assertThat(exit).as(code.name()).isEqualTo(code.exitCode());
      assertThat(err.toString()).isEqualTo("cascade: it went " + code.wireName() + NL);
    }
  }

  @Test
  void anyOtherException_exitsOne_withItsMessageOrName() {
    assertThat(
            runFailing(
                new UncheckedIOException("trace: no such file or folder", new IOException("gone"))))
        .isEqualTo(1);
    assertThat(runFailing(new IllegalStateException())).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(
            "cascade: trace: no such file or folder"
                + NL
                + "cascade: java.lang.IllegalStateException"
                + NL);
  }

  @Test
  void picocliUsageError_exitsTwo() {
    assertThat(cli.run("postprocess", "--jobs", "0", "x")).isEqualTo(2);
    assertThat(err.toString()).contains("--jobs must be at least 1, not 0");
  }
}
