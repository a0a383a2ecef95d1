package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Usage errors as the README promises (exit 2) and as a new user needs them: the line that matters
 * and where to read more, not the command's whole help under picocli's own words.
 */
final class UsageErrorsTest {

  private final CapturedCli cli = new CapturedCli();

  @Test
  void noCommand_exitsTwoListingTheCommandsOnStderr() {
    assertThat(cli.run()).as(cli.err::toString).isEqualTo(2);
    assertThat(cli.err.toString()).startsWith("cascade: name a command").contains("Commands:");
    assertThat(cli.out.toString()).isEmpty();

    CapturedCli runs = new CapturedCli();
    assertThat(runs.run("runs")).as(runs.err::toString).isEqualTo(2);
    assertThat(runs.err.toString()).startsWith("cascade runs: name a command").contains("create");

    CapturedCli traces = new CapturedCli();
    assertThat(traces.run("traces")).as(traces.err::toString).isEqualTo(2);
  }

  @Test
  void unknownOption_isOneLineAndWhereToReadMore() {
    int exit = cli.run("runs", "list", "--frobnicate");

    assertThat(exit).isEqualTo(2);
    assertThat(cli.err.toString().lines().toList())
        .containsExactly(
            "cascade runs list: Unknown option: '--frobnicate'", "See 'cascade runs list --help'.");
  }

  @Test
  void malformedConfigCount_isSaidInItsOwnWordsWithoutTheHelp() {
    int exit = cli.run("runs", "create", "demo", "SM90_H100:x");

    assertThat(exit).isEqualTo(2);
    assertThat(cli.err.toString().lines().toList())
        .containsExactly(
            "cascade runs create: the count in \"SM90_H100:x\" must be a whole number of replicas;"
                + " write CONFIG:COUNT, such as SM90_H100:2",
            "See 'cascade runs create --help'.");
  }

  @Test
  void emulateHelp_printsThePercentSignWithoutPicocliWarnings() {
    // picocli formats each description line with String.format and, when that throws (a lone
    // '%'), prints "[picocli WARN] Could not format" on System.err, not the command's err.
    ByteArrayOutputStream systemErr = new ByteArrayOutputStream();
    PrintStream before = System.err;
    System.setErr(new PrintStream(systemErr, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = cli.run("emulate", "--help");
    } finally {
      System.setErr(before);
    }

    assertThat(exit).isZero();
    assertThat(systemErr.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    assertThat(cli.out.toString()).contains("up to 1% more or");
  }
}
