package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.agent.emulator.EmulatorOptions;
import dev.cascade.core.SimCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The emulator's pace is said the same, and truthfully, wherever a user looks: the sims Cascade
 * starts run at {@link SimCommands#DEMO_SPEED}, {@code cascade emulate} by hand at {@link
 * EmulatorOptions#DEFAULT_SPEED}, and {@code CASCADE_EMULATE_SPEED=0} is how to go faster.
 */
final class EmulatorPaceHelpTest {

  private static final Path DOCS = Path.of("").toAbsolutePath().resolveSibling("docs");
  private static final String BY_HAND = String.valueOf((long) EmulatorOptions.DEFAULT_SPEED);

  /** The help as one line, however picocli wrapped it. */
  private static String help(String command) {
    CapturedCli cli = new CapturedCli();
    assertThat(cli.run(command, "--help")).isZero();
    return cli.out.toString().replaceAll("\\s+", " ");
  }

  @Test
  void runHelp_saysThePaceOfItsSimsAndHowToGoFaster() {
    assertThat(help("run"))
        .contains("emulator at " + SimCommands.DEMO_SPEED + " simulated cycles per second")
        .contains("CASCADE_EMULATE_SPEED=0 runs them as fast as they can");
  }

  @Test
  void emulateHelp_saysBothDefaults() {
    assertThat(help("emulate"))
        .contains("else " + BY_HAND + " by hand")
        .contains("else " + SimCommands.DEMO_SPEED + ")");
  }

  @Test
  void docs_sayThePaceOfTheSimsCascadeStartsAndHowToGoFaster() throws IOException {
    String thousands =
        String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(SimCommands.DEMO_SPEED));
    for (String doc : new String[] {"getting-started.md", "emulator.md"}) {
      assertThat(Files.readString(DOCS.resolve(doc)))
          .as(doc)
          .contains(thousands + " simulated cycles per second")
          .contains("CASCADE_EMULATE_SPEED=0");
    }
    assertThat(Files.readString(DOCS.resolve("emulator.md")))
        .contains("`$CASCADE_EMULATE_SPEED`, else " + BY_HAND + " |");
  }
}
