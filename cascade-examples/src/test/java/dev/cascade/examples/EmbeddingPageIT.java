package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/embedding.md} is all a user needs: a separate Maven project made of the page alone
 * (its {@code xml} dependencies in a plain pom, its imports and every Java block in the one class
 * it names) builds against the reactor's freshly built jars.
 *
 * <p>The project resolves from a local repository of its own, seeded with copies of this build's
 * {@code dev.cascade} jars and poms, with the shared repository behind it read-only ({@code
 * maven.repo.local.tail}), offline: nothing is installed into the shared repository, and a stale
 * {@code dev.cascade} artifact there is never used.
 */
final class EmbeddingPageIT {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Pattern BLOCK = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern CLASS =
      Pattern.compile("`public final class (\\w+) \\{ \\.\\.\\. }`");
  private static final Pattern DEPENDENCY =
      Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

  @TempDir Path dir;

  @Test
  void embeddingPage_buildsAsASeparateMavenProject() throws Exception {
    String page = page();
    assertThat(page)
        .as("the page's dependency names the version in pom.xml")
        .contains("<version>" + version() + "</version>")
        .contains("./mvnw install -DskipTests");

    Build build = build(page);

    assertThat(build.exitCode()).as(build.output()).isZero();
    assertThat(build.classes().resolve(className(page) + ".class")).as(build.output()).exists();
  }

  @Test
  void aPageWhoseCodeNeedsTheExamplesHelpers_failsToBuild() throws Exception {
    String page = page();
    // What the page showed before issue 29: a helper from cascade-examples.
    String broken =
        page.replace(
            "cascade.traces().await(\"demo\", Duration.ofMinutes(1))",
            "EmbeddedCascade.awaitReady(cascade.traces(), \"demo\", Duration.ofMinutes(1))");
    assertThat(broken).isNotEqualTo(page);

    Build build = build(broken);

    assertThat(build.exitCode()).as(build.output()).isNotZero();
    assertThat(build.output()).contains("cannot find symbol").contains("EmbeddedCascade");
  }

  private static String page() throws IOException {
    return Files.readString(ROOT.resolve("docs/embedding.md"), StandardCharsets.UTF_8);
  }

  private static String className(String page) {
    Matcher name = CLASS.matcher(page);
    assertThat(name.find())
        .as("the page names the class its code goes in: `public final class NAME { ... }`")
        .isTrue();
    return name.group(1);
  }

  private record Build(int exitCode, String output, Path classes) {}

  /** Writes the page's project into {@code dir/project} and compiles it with Maven, offline. */
  private Build build(String page) throws Exception {
    String dependencies = "";
    String imports = null;
    StringBuilder body = new StringBuilder();
    Matcher block = BLOCK.matcher(page);
    while (block.find()) {
      String code = block.group(2);
      if (block.group(1).equals("xml")) {
        dependencies += code;
      } else if (block.group(1).equals("java") && code.startsWith("import ")) {
        assertThat(imports).as("one block of imports on the page").isNull();
        imports = code;
      } else if (block.group(1).equals("java")) {
        body.append('\n').append(code);
      }
    }
    assertThat(dependencies).as("the page's xml dependencies").contains("<dependency>");
    assertThat(imports).as("the page's imports block").isNotNull();
    String name = className(page);

    Path project = Files.createDirectories(dir.resolve("project"));
    Files.writeString(
        project.resolve("pom.xml"),
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>example</groupId>
          <artifactId>embedding-page</artifactId>
          <version>1</version>
          <properties>
            <maven.compiler.release>21</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
          <dependencies>
          %s
          </dependencies>
        </project>
        """
            .formatted(dependencies));
    Path sources = Files.createDirectories(project.resolve("src/main/java"));
    Files.writeString(
        sources.resolve(name + ".java"),
        imports + "\npublic final class " + name + " {\n" + body + "}\n",
        StandardCharsets.UTF_8);

    Path repository = seedRepository(dir.resolve("repository"));
    Path log = dir.resolve("build.log");
    ProcessBuilder maven =
        new ProcessBuilder(
                ROOT.resolve("mvnw").toString(),
                "-o",
                "-B",
                "--no-transfer-progress",
                "-f",
                project.resolve("pom.xml").toString(),
                "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + sharedRepository(),
                "compile")
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    maven.environment().put("JAVA_HOME", System.getProperty("java.home"));
    maven.environment().remove("MAVEN_ARGS"); // the outer build's arguments are not the page's
    maven.environment().remove("MAVEN_BASEDIR");
    Process process = maven.start();
    try {
      assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("Maven finished").isTrue();
    } finally {
      process.destroyForcibly().waitFor();
    }
    return new Build(
        process.exitValue(),
        Files.readString(log, StandardCharsets.UTF_8),
        project.resolve("target/classes"));
  }

  /**
   * A local repository holding this build's parent pom and the jar and pom of cascade-core and of
   * every {@code dev.cascade} module it needs at run time, as {@code ./mvnw install} would.
   */
  private static Path seedRepository(Path repository) throws IOException {
    String version = version();
    copy(ROOT.resolve("pom.xml"), artifact(repository, "cascade-parent", version, "pom"));
    Set<String> modules = new LinkedHashSet<>();
    Deque<String> next = new ArrayDeque<>(List.of("cascade-core"));
    while (!next.isEmpty()) {
      String module = next.pop();
      if (modules.add(module)) {
        next.addAll(runtimeModules(ROOT.resolve(module).resolve("pom.xml")));
      }
    }
    for (String module : modules) {
      Path jar = ROOT.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
      assertThat(jar)
          .as("build the reactor first (./mvnw -pl cascade-examples -am verify): no " + jar)
          .exists();
      copy(ROOT.resolve(module).resolve("pom.xml"), artifact(repository, module, version, "pom"));
      copy(jar, artifact(repository, module, version, "jar"));
    }
    return repository;
  }

  /** The {@code dev.cascade} modules a pom depends on outside its tests. */
  static List<String> runtimeModules(Path pom) throws IOException {
    List<String> modules = new ArrayList<>();
    Matcher dependency = DEPENDENCY.matcher(Files.readString(pom, StandardCharsets.UTF_8));
    while (dependency.find()) {
      String it = dependency.group(1);
      Matcher artifact = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(it);
      if (it.contains("<groupId>dev.cascade</groupId>")
          && !it.contains("<scope>test</scope>")
          && !it.contains("<type>test-jar</type>")
          && artifact.find()) {
        modules.add(artifact.group(1));
      }
    }
    return modules;
  }

  private static String version() throws IOException {
    Matcher version =
        Pattern.compile("<artifactId>cascade-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8));
    assertThat(version.find()).as("the parent's version in pom.xml").isTrue();
    return version.group(1);
  }

  private static Path sharedRepository() {
    String configured = System.getProperty("cascade.m2.repository", "");
    return configured.isBlank() || configured.startsWith("${")
        ? Path.of(System.getProperty("user.home"), ".m2", "repository")
        : Path.of(configured);
  }

  private static Path artifact(Path repository, String module, String version, String type) {
    return repository.resolve(
        Path.of("dev", "cascade", module, version, module + "-" + version + "." + type));
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to.getParent());
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
  }
}
