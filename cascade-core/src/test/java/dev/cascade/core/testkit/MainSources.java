package dev.cascade.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The module's main Java sources, for tests that hold the code to a rule by reading it. */
public final class MainSources {

  /** {@code src/main/java}, from the module folder tests run in. */
  public static final Path ROOT = Path.of("src/main/java");

  /** The checkout: the folder that holds every module. */
  public static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();

  private MainSources() {}

  /** Every {@code .java} file under {@link #ROOT}, sorted. */
  public static List<Path> list() {
    assertThat(ROOT).as("run from the module folder").isDirectory();
    return javaFilesUnder(ROOT);
  }

  /**
   * The modules of the checkout that have main Java sources ({@code cascade-core}, {@code
   * cascade-agent}, ...), sorted: for rules that hold across modules.
   */
  public static List<String> modules() {
    try (Stream<Path> folders = Files.list(REPOSITORY)) {
      return folders
          .filter(folder -> folder.getFileName().toString().startsWith("cascade-"))
          .filter(folder -> Files.isDirectory(folder.resolve(ROOT)))
          .map(folder -> folder.getFileName().toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every main {@code .java} file of {@code module}, sorted. */
  public static List<Path> listModule(String module) {
    return javaFilesUnder(REPOSITORY.resolve(module).resolve(ROOT));
  }

  private static List<Path> javaFilesUnder(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
