package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.testkit.JavaSource;
import dev.cascade.core.testkit.MainSources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One reader of the environment per side, in every module's main sources: {@code System.getenv} is
 * called only by the readers (and the few documented places below), and no code builds a {@code
 * CASCADE_*} name out of pieces, which would hide it from a search for the name and from {@code
 * EnvironmentReaderTest}. Reads the sources as text ({@link JavaSource}), so comments and messages
 * do not count.
 */
final class EnvironmentRulesTest {

  /**
   * The files that may call {@code System.getenv}, relative to the checkout, and why. Everything
   * else takes the environment, or typed values, from its caller: the readers themselves ({@code
   * AppEnvironment} behind {@code CascadeSettings}, {@code SimContract}, {@code
   * SlurmLauncherSettings}, {@code CliSailClient}, {@code S3Credentials}) read a map they are
   * given.
   */
  static final Map<String, String> MAY_READ_THE_ENVIRONMENT =
      Map.ofEntries(
          Map.entry(
              "cascade-core/src/main/java/dev/cascade/core/LocalLauncher.java",
              "passes PATH, HOME and the other base variables a local child process inherits;"
                  + " reads no setting of Cascade's"),
          Map.entry(
              "cascade-api/src/main/java/dev/cascade/core/KernelNames.java",
              "looks c++filt up on PATH as a shell would; reads no setting of Cascade's"),
          Map.entry(
              "cascade-agent/src/main/java/dev/cascade/agent/SimAgentMain.java",
              "the sim process's main: hands its environment to SimContract.fromEnvironment and"
                  + " EmulatorOptions, the sim side's readers"),
          Map.entry(
              "cascade-cli/src/main/java/dev/cascade/cli/CliEnvironment.java",
              "the command line's reader"),
          Map.entry(
              "cascade-slurm/src/main/java/dev/cascade/slurm/SlurmLauncher.java",
              "the ServiceLoader constructor hands the environment to"
                  + " SlurmLauncherSettings.fromEnvironment, Slurm's reader"),
          Map.entry(
              "cascade-sail/src/main/java/dev/cascade/sail/SailLauncher.java",
              "the ServiceLoader constructor hands the environment to"
                  + " CliSailClient.fromEnvironment, Sail's reader"),
          Map.entry(
              "cascade-junit/src/main/java/dev/cascade/junit/CascadeExtension.java",
              "the extension hands the environment to ExperimentSettings, JUnit's reader"),
          Map.entry(
              "cascade-examples/src/main/java/dev/cascade/examples/EmbeddedRunExample.java",
              "an embedder's main hands its environment to CascadeSettings"),
          Map.entry(
              "cascade-examples/src/main/java/dev/cascade/examples/WatchRunExample.java",
              "an embedder's main hands its environment to CascadeSettings"));

  /**
   * Modules left out of the {@code System.getenv} rule: the benchmark harness reads PATH and the
   * locations of Accel-Sim's own tools ({@code ACCELSIM_GET_STATS}) to time them; it is run by
   * hand, never embedded.
   */
  static final List<String> EXEMPT_MODULES = List.of("cascade-bench");

  /** A call of {@code System.getenv}, or a reference to it ({@code System::getenv}). */
  private static final Pattern GETENV = Pattern.compile("\\bgetenv\\b");

  /** A literal that is a variable's name, or the start of one ({@code "CASCADE_"}). */
  private static final Pattern NAME_OR_PREFIX = Pattern.compile("^\\$?\\{?CASCADE(?:_\\w*)?$");

  /** Code right after a literal that adds to it. */
  private static final Pattern ADDED_TO =
      Pattern.compile("^\\s*(?:\\+|\\.concat\\(|\\.formatted\\()");

  /** Code right before a literal that adds it to something. */
  private static final Pattern ADDED = Pattern.compile("(?:\\+|\\.append\\(|\\.concat\\()\\s*$");

  @Test
  void onlyTheReaders_callSystemGetenv() {
    Map<String, String> sources = mainSources();
    assertThat(sources.keySet())
        .as("the rule sees every module")
        .anyMatch(file -> file.startsWith("cascade-cli/"))
        .anyMatch(file -> file.startsWith("cascade-agent/"))
        .anyMatch(file -> file.startsWith("cascade-slurm/"));
    List<String> readers = new ArrayList<>();
    sources.forEach(
        (file, source) -> {
          if (readsTheEnvironment(source)) {
            readers.add(file);
          }
        });
    assertThat(readers)
        .as("files that call System.getenv outside the readers")
        .allMatch(
            file ->
                MAY_READ_THE_ENVIRONMENT.containsKey(file)
                    || EXEMPT_MODULES.stream().anyMatch(module -> file.startsWith(module + "/")));
    assertThat(MAY_READ_THE_ENVIRONMENT.keySet())
        .as("every allowed file exists and still reads the environment")
        .allMatch(readers::contains);
  }

  @Test
  void noCode_buildsAVariablesNameFromPieces() {
    Map<String, List<String>> built = new TreeMap<>();
    mainSources()
        .forEach(
            (file, source) -> {
              List<String> pieces = namesBuiltIn(source);
              if (!pieces.isEmpty()) {
                built.put(file, pieces);
              }
            });
    assertThat(built).as("CASCADE_* names built by concatenation or formatting").isEmpty();
  }

  @Test
  void readsTheEnvironment_seesCallsAndReferencesButNotProse() {
    // Breaks the rule on purpose, as code in a module's main sources would.
    assertThat(readsTheEnvironment("class X { String a = System.getenv(\"HOME\"); }")).isTrue();
    assertThat(readsTheEnvironment("class X { Map<String, String> a = System.getenv(); }"))
        .isTrue();
    assertThat(readsTheEnvironment("class X { Supplier<Map<String, String>> a = System::getenv; }"))
        .isTrue();
    assertThat(
            readsTheEnvironment(
                """
                class X {
                  // System.getenv() is read elsewhere
                  /** not System.getenv("HOME") either */
                  String a = "call System.getenv(name) yourself";
                }
                """))
        .isFalse();
  }

  @Test
  void namesBuiltIn_seesPrefixesFormatsAndConcatenation() {
    // Breaks the rule on purpose, each line a different way of building a name.
    String source =
        """
        class X {
          String a = "CASCADE_" + suffix;
          String b = "CASCADE_S3_" + key.toUpperCase();
          String c = "CASCADE_%s".formatted(key);
          String d = String.format("CASCADE_%s_DIR", key);
          String e = new StringBuilder().append("CASCADE").append('_').append(key).toString();
          String f = "CASCADE_ACCELSIM".concat(suffix);
          String g = prefix + "CASCADE_TOKEN";
          String h = "CASCADE_TOKEN";
          String i = "CASCADE_TOKEN is not set: " + hint;
          boolean j = name.startsWith("CASCADE_SIM_");
          // "CASCADE_" + x in a comment is not code
        }
        """;

    assertThat(namesBuiltIn(source))
        .containsExactly(
            "CASCADE_",
            "CASCADE_S3_",
            "CASCADE_%s",
            "CASCADE_%s_DIR",
            "CASCADE",
            "CASCADE_ACCELSIM",
            "CASCADE_TOKEN");
  }

  /** Whether {@code source}'s code (not its comments or literals) calls {@code System.getenv}. */
  static boolean readsTheEnvironment(String source) {
    return GETENV.matcher(JavaSource.codeOf(source)).find();
  }

  /**
   * The literals in {@code source} that are pieces of a {@code CASCADE_*} name: a format ({@code
   * "CASCADE_%s"}), or a name or prefix something is added to or that is added to something. A
   * literal that spells a whole name and stands alone is fine, as is a prefix that is only compared
   * ({@code name.startsWith("CASCADE_SIM_")}) and a message that starts with a name.
   */
  static List<String> namesBuiltIn(String source) {
    List<String> pieces = new ArrayList<>();
    for (JavaSource.Literal literal : JavaSource.literals(source)) {
      String text = literal.text();
      boolean format = text.matches("^\\$?\\{?CASCADE_[\\w%]*%\\w*$");
      if (!format && !NAME_OR_PREFIX.matcher(text).matches()) {
        continue;
      }
      String after = JavaSource.codeOf(source.substring(literal.end()));
      String before = JavaSource.codeOf(source.substring(0, literal.start()));
      if (format || ADDED_TO.matcher(after).find() || ADDED.matcher(before).find()) {
        pieces.add(text);
      }
    }
    return pieces;
  }

  /** The text of each module's main sources, by their path in the checkout. */
  private static Map<String, String> mainSources() {
    Map<String, String> sources = new TreeMap<>();
    for (String module : MainSources.modules()) {
      for (Path file : MainSources.listModule(module)) {
        sources.put(
            MainSources.REPOSITORY.relativize(file).toString().replace('\\', '/'),
            MainSources.read(file));
      }
    }
    return sources;
  }
}
