package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cascade} builds the command line when it has to, and says so: a line that it is building
 * and about how long it takes, one line per module as Maven reaches it, how long it took, and on a
 * failure Maven's errors and where its whole output is. A change to a test, a doc or a module the
 * command line is not built from builds nothing. The script runs in a copy of the checkout whose
 * {@code mvnw} only pretends to build (it prints Maven's module lines and puts this build's jar in
 * place), so no test waits for a real build.
 */
final class CascadeScriptBuildIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path TARGET = ROOT.resolve("cascade-cli/target");

  @TempDir Path checkout;
  private Path builds;

  private record Result(int exit, String out, String err) {}

  @BeforeEach
  void copyTheScript() throws IOException {
    Files.createDirectories(checkout.resolve(".mvn"));
    Files.copy(ROOT.resolve("cascade"), checkout.resolve("cascade"));
    Files.copy(ROOT.resolve(".mvn/jdk.sh"), checkout.resolve(".mvn/jdk.sh"));
    Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
    for (String source :
        List.of(
            "cascade-core/src/main/java/Core.java",
            "cascade-core/src/test/java/CoreTest.java",
            "cascade-examples/src/main/java/Example.java",
            "docs/guide.md")) {
      Files.createDirectories(checkout.resolve(source).getParent());
      Files.writeString(checkout.resolve(source), "// " + source + "\n");
    }
    builds = checkout.resolve("builds");
    fakeMaven("0");
  }

  /** An mvnw that prints Maven's module lines, counts its runs, and exits {@code exit}. */
  private void fakeMaven(String exit) throws IOException {
    Path mvnw = checkout.resolve("mvnw");
    Files.writeString(
        mvnw,
        """
        #!/bin/sh
        echo run >> '%s'
        echo '[INFO] Scanning for projects...'
        echo '[INFO] Building Cascade API 0.1.0-SNAPSHOT                                 [1/2]'
        echo '[INFO] Building Cascade command line 0.1.0-SNAPSHOT                        [2/2]'
        if [ %s != 0 ]; then
          echo '[ERROR] Failed to execute goal ... on project cascade-cli: Compilation failure'
          exit %s
        fi
        mkdir -p cascade-cli/target
        cp '%s' cascade-cli/target/cascade-cli.jar
        ln -sfn '%s' cascade-cli/target/lib
        echo '[INFO] BUILD SUCCESS'
        """
            .formatted(
                builds, exit, exit, TARGET.resolve("cascade-cli.jar"), TARGET.resolve("lib")));
    Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Result cascade(String... args) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(Stream.concat(Stream.of("./cascade"), Stream.of(args)).toList())
            .directory(checkout.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("CASCADE_CLI_CACHE", "off");
    builder.environment().remove("CASCADE_JAVA_OPTS");
    Process process = builder.start();
    try {
      process.getOutputStream().close();
      byte[] err = process.getErrorStream().readAllBytes();
      byte[] out = process.getInputStream().readAllBytes();
      assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
      return new Result(
          process.exitValue(),
          new String(out, StandardCharsets.UTF_8),
          new String(err, StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly().waitFor();
    }
  }

  private long builds() throws IOException {
    return Files.exists(builds) ? Files.readAllLines(builds).size() : 0;
  }

  /** Makes {@code path} newer than the jar the last build left. */
  private void change(String path) throws IOException {
    Path jar = checkout.resolve("cascade-cli/target/cascade-cli.jar");
    Instant after = Files.getLastModifiedTime(jar).toInstant().plusSeconds(5);
    Files.setLastModifiedTime(checkout.resolve(path), FileTime.from(after));
  }

  @Test
  void firstRun_saysItBuildsAndShowsEachModule_thenRunsTheCommand() throws Exception {
    Result first = cascade("--version");

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).startsWith("cascade ");
    assertThat(first.err())
        .contains("cascade: building the command line (the first run, or its sources changed;")
        .contains("about 4 minutes")
        .contains("cascade:   [1/2] Cascade API\n")
        .contains("cascade:   [2/2] Cascade command line\n")
        .containsPattern("cascade: built in \\d+ min \\d+ s")
        .doesNotContain("Scanning for projects")
        .doesNotContain("BUILD SUCCESS");
    assertThat(checkout.resolve("cascade-cli/target/cascade-build.log"))
        .content()
        .contains("BUILD SUCCESS");

    Result second = cascade("--version");

    assertThat(second.err()).isEmpty();
    assertThat(builds()).isEqualTo(1);
  }

  @Test
  void aChangedTestDocOrOtherModule_buildsNothing_aChangedMainSourceBuildsAgain() throws Exception {
    assertThat(cascade("--version").exit()).isZero();

    change("cascade-core/src/test/java/CoreTest.java");
    change("cascade-examples/src/main/java/Example.java");
    change("docs/guide.md");
    Result untouched = cascade("--version");

    assertThat(untouched.err()).isEmpty();
    assertThat(builds()).isEqualTo(1);

    change("cascade-core/src/main/java/Core.java");
    Result rebuilt = cascade("--version");

    assertThat(rebuilt.err()).contains("cascade: building the command line");
    assertThat(builds()).isEqualTo(2);
  }

  @Test
  void aFailedBuild_showsMavensErrorsAndWhereItsOutputIs_andExits1() throws Exception {
    fakeMaven("1");

    Result failed = cascade("--version");

    assertThat(failed.exit()).isEqualTo(1);
    assertThat(failed.out()).isEmpty();
    assertThat(failed.err())
        .contains("[ERROR] Failed to execute goal ... on project cascade-cli: Compilation failure")
        .contains(
            "cascade: the build failed; the whole of Maven's output is in "
                + checkout.resolve("cascade-cli/target/cascade-build.log"));
  }
}
