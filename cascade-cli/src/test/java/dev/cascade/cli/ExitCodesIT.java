package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same error exits the same way from the client commands as the API's {@link ErrorCode} says,
 * with the API's own message: run in-process against a real server.
 */
final class ExitCodesIT {

  private static final String NL = System.lineSeparator();

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @BeforeEach
  void start() throws Exception {
    cascade = new CliTestServer(dataDir);
  }

  @AfterEach
  void stop() {
    if (cascade != null) {
      cascade.close();
    }
  }

  @Test
  void invalidConfig_exitsTwo_withTheApisMessage() {
    CascadeException api =
        catchThrowableOfType(
            CascadeException.class,
            () -> cascade.engine.runs().create("demo", List.of(new RunEntry("SM7_QV100", 1))));

    Result result = cascade.run("runs", "create", "demo", "SM7_QV100:1");

    assertThat(api.code()).isEqualTo(ErrorCode.INVALID);
    assertThat(result.exit()).isEqualTo(ErrorCode.INVALID.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo("cascade: " + FailureHandler.message(api) + NL)
        .startsWith("cascade: GPU config \"SM7_QV100\" is sm_70");
  }

  @Test
  void unknownTrace_exitsTwoAsAnUnknownConfigDoes_namingTheCommandThatListsTraces() {
    Result result = cascade.run("runs", "create", "nope", "SM90_H100:1");

    assertThat(result.exit()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .startsWith("cascade: there is no trace \"nope\"")
        .contains("cascade traces list");
  }

  @Test
  void mistypedConfig_saysWhichOneWasMeantInsteadOfListingThemAll() {
    for (String typed : List.of("sm90_h100", "SM90_H1000")) {
      Result result = cascade.run("runs", "create", "demo", typed + ":1");

      assertThat(result.exit()).as(result.err()).isEqualTo(2);
      assertThat(result.err())
          .as(typed)
          .contains("there is no GPU config \"" + typed + "\"")
          .contains("did you mean \"SM90_H100\"?")
          .doesNotContain("known:");
    }
    Result far = cascade.run("runs", "create", "demo", "XYZ:1");
    assertThat(far.err()).contains("known: ").contains("SM90_H100");
  }

  @Test
  void unknownRun_exitsTwo_withTheApisMessage() {
    String id = "r_01JD3N8X5S2Q7W4K9M6T1V0BZC";
    CascadeException api =
        catchThrowableOfType(CascadeException.class, () -> cascade.engine.runs().get(id));

    Result result = cascade.run("runs", "show", id);

    assertThat(api.code()).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(result.exit()).isEqualTo(ErrorCode.NOT_FOUND.exitCode()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("cascade: " + FailureHandler.message(api) + NL).contains(id);
  }
}
