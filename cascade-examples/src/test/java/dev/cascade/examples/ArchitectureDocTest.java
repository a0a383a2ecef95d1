package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/architecture.md stays true: the modules and packages it names are the build's. */
final class ArchitectureDocTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Pattern MODULE_ROW = Pattern.compile("(?m)^\\| `(cascade-[a-z0-9-]+)` \\|");
  private static final Pattern PACKAGE_ROW =
      Pattern.compile("(?m)^\\| `(dev\\.cascade\\.[a-z.]+)` \\|");
  private static final Pattern POM_MODULE = Pattern.compile("<module>([^<]+)</module>");

  @Test
  void everyModuleItNames_existsAndEveryModuleOfTheBuild_isNamed() throws IOException {
    List<String> named = matches(MODULE_ROW, read("docs/architecture.md"));
    List<String> built = matches(POM_MODULE, read("pom.xml"));

    assertThat(named).isNotEmpty();
    for (String module : named) {
      assertThat(ROOT.resolve(module).resolve("pom.xml")).as(module).isRegularFile();
    }
    assertThat(named).containsExactlyInAnyOrderElementsOf(built);
  }

  @Test
  void everyPackageItNames_existsInCoreOrApi() throws IOException {
    List<String> packages = matches(PACKAGE_ROW, read("docs/architecture.md"));

    assertThat(packages).contains("dev.cascade.core", "dev.cascade.core.internal.store");
    // The public packages are split between cascade-api and cascade-core.
    List<Path> sources =
        List.of(
            ROOT.resolve("cascade-core/src/main/java"), ROOT.resolve("cascade-api/src/main/java"));
    for (String name : packages) {
      assertThat(sources)
          .as(name + " in cascade-core or cascade-api")
          .anySatisfy(root -> assertThat(root.resolve(name.replace('.', '/'))).isDirectory());
    }
  }

  private static String read(String file) throws IOException {
    return Files.readString(ROOT.resolve(file), StandardCharsets.UTF_8);
  }

  private static List<String> matches(Pattern pattern, String text) {
    List<String> found = new ArrayList<>();
    Matcher matcher = pattern.matcher(text);
    while (matcher.find()) {
      found.add(matcher.group(1));
    }
    return found;
  }
}
