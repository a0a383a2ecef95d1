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

  private MainSources() {}

  /** Every {@code .java} file under {@link #ROOT}, sorted. */
  public static List<Path> list() {
    assertThat(ROOT).as("run from the module folder").isDirectory();
    try (Stream<Path> files = Files.walk(ROOT)) {
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
