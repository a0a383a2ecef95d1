package dev.cascade.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.JavaSource;
import dev.cascade.core.testkit.MainSources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One reader of the app's {@code CASCADE_*} environment: {@link AppEnvironment} (behind {@code
 * CascadeSettings}) is the only main source in core with a string literal that starts with a
 * variable's name, {@code "CASCADE_..."} or {@code "${CASCADE_...}"}: such a literal is a key some
 * code reads or writes. Prose in a message or a comment that mentions a variable is fine. The sim
 * side's names live in cascade-agent's {@code SimContract}; code here refers to its constants.
 */
final class EnvironmentReaderTest {

  private static final Path MAIN = MainSources.ROOT;

  /** The one file that may spell the names. */
  private static final Path READER = MAIN.resolve("dev/cascade/core/internal/AppEnvironment.java");

  /** A literal's text that starts with a variable's name, as a key or a placeholder. */
  private static final Pattern NAME_FIRST = Pattern.compile("^(?:\\$\\{?)?CASCADE_[A-Z0-9_]");

  @Test
  void onlyTheReaderSpellsAVariablesName() {
    Map<String, List<String>> spelled = new TreeMap<>();
    for (Path file : MainSources.list()) {
      List<String> names =
          literalsIn(MainSources.read(file)).stream()
              .filter(text -> NAME_FIRST.matcher(text).find())
              .toList();
      if (!names.isEmpty() && !file.equals(READER)) {
        spelled.put(MAIN.relativize(file).toString(), names);
      }
    }
    assertThat(spelled)
        .as("string literals naming a CASCADE_* variable outside AppEnvironment")
        .isEmpty();
    assertThat(literalsIn(MainSources.read(READER)))
        .as("the reader spells the names")
        .contains("CASCADE_TOKEN");
  }

  @Test
  void literalsIn_skipsCommentsAndReadsEscapesAndTextBlocks() {
    String source =
        """
        class X {
          // "CASCADE_IN_A_COMMENT" is not code
          /* nor "CASCADE_HERE", */
          String a = "CASCADE_A";
          String b = "say \\"CASCADE_B\\" " + 'c' + '"';
          String c = \"""
              CASCADE_C\""";
          String d = "see CASCADE_D"; // prose
        }
        """;

    assertThat(literalsIn(source))
        .containsExactly("CASCADE_A", "say \\\"CASCADE_B\\\" ", "CASCADE_C", "see CASCADE_D");
    assertThat(literalsIn(source).stream().filter(text -> NAME_FIRST.matcher(text).find()))
        .containsExactly("CASCADE_A", "CASCADE_C");
  }

  static List<String> literalsIn(String source) {
    return JavaSource.literalsIn(source);
  }
}
