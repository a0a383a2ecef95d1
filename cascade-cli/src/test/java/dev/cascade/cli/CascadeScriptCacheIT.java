package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cascade}'s class cache for short commands: the first run after a build records what it
 * uses and makes the cache in the background once it has answered, later runs use it, and a cache
 * that is stale or broken, or a JDK without AOT caches (before 25), never breaks a command or adds
 * a word to its output.
 */
final class CascadeScriptCacheIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path TARGET = ROOT.resolve("cascade-cli/target");
  private static final Path JAR = TARGET.resolve("cascade-cli.jar");
  private static final String JAVA_HOME = System.getProperty("java.home");

  @BeforeEach
  @AfterEach // the fake JDK's archive would stay behind, named after a folder that is gone
  void noCacheYet() throws IOException {
    for (Path cache : caches()) {
      Files.delete(cache);
    }
  }

  /** Waits until the cache the last command started making in the background is there. */
  private static List<Path> awaitCacheMade() throws IOException {
    await()
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(
            () -> {
              assertThat(caches()).hasSize(1);
              assertThat(inProgress()).as("the cache's files in the making").isEmpty();
            });
    return caches();
  }

  private static List<Path> inProgress() throws IOException {
    try (Stream<Path> files = Files.list(TARGET)) {
      return files
          .filter(f -> f.getFileName().toString().matches("cascade-cli-\\d+\\.aot\\.\\d+\\..*"))
          .toList();
    }
  }

  private static List<Path> caches() throws IOException {
    try (Stream<Path> files = Files.list(TARGET)) {
      return files
          .filter(f -> f.getFileName().toString().matches("cascade-cli-\\d+\\.(aot|jsa)"))
          .toList();
    }
  }

  private record Result(int exit, String out, String err) {}

  private static Result cascade(Map<String, String> env, String... args) throws Exception {
    List<String> command = Stream.concat(Stream.of("./cascade"), Stream.of(args)).toList();
    ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
    builder.environment().remove("CASCADE_CLI_CACHE");
    builder.environment().remove("CASCADE_JAVA_OPTS");
    builder.environment().put("JAVA_HOME", JAVA_HOME);
    builder.environment().putAll(env);
    Process process = builder.start();
    try {
      process.getOutputStream().close();
      byte[] err = process.getErrorStream().readAllBytes();
      byte[] out = process.getInputStream().readAllBytes();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
      return new Result(
          process.exitValue(),
          new String(out, StandardCharsets.UTF_8),
          new String(err, StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly();
    }
  }

  private static String version() throws Exception {
    Result plain = cascade(Map.of("CASCADE_CLI_CACHE", "off"), "--version");
    assertThat(plain.exit()).as(plain.err()).isZero();
    assertThat(caches()).isEmpty();
    return plain.out();
  }

  @Test
  void theFirstShortCommand_makesTheCache_andLaterOnesUseIt_printingTheSame() throws Exception {
    String expected = version();

    Result first = cascade(Map.of(), "--version");
    List<Path> made = awaitCacheMade();
    Result second = cascade(Map.of(), "--version");

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo(expected);
    assertThat(first.err()).isEmpty();
    assertThat(made).hasSize(1);
    assertThat(Files.size(made.getFirst())).isPositive();
    assertThat(second.out()).isEqualTo(expected);
    assertThat(second.err()).isEmpty();
    assertThat(caches()).isEqualTo(made);
  }

  @Test
  void aBrokenCache_isSkippedSilently_andOneOlderThanTheJar_isMadeAgain() throws Exception {
    String expected = version();
    assertThat(cascade(Map.of(), "--version").exit()).isZero();
    Path cache = awaitCacheMade().getFirst();
    Files.writeString(cache, "not a cache");

    Result broken = cascade(Map.of(), "--version");

    assertThat(broken.exit()).as(broken.err()).isZero();
    assertThat(broken.out()).isEqualTo(expected);
    assertThat(broken.err()).isEmpty();

    Files.setLastModifiedTime(
        cache, FileTime.from(Files.getLastModifiedTime(JAR).toInstant().minusSeconds(60)));
    Result stale = cascade(Map.of(), "--version");

    assertThat(stale.exit()).as(stale.err()).isZero();
    assertThat(stale.out()).isEqualTo(expected);
    awaitCacheMade();
    assertThat(Files.readString(cache, StandardCharsets.ISO_8859_1)).isNotEqualTo("not a cache");
    assertThat(Files.getLastModifiedTime(cache).toInstant())
        .isAfter(Files.getLastModifiedTime(JAR).toInstant());
  }

  @Test
  void aJdkWithoutAotCaches_getsTheClassDataArchive_andOffGetsNeither(@TempDir Path jdk)
      throws Exception {
    String expected = version();
    Path args = jdk.resolve("args");
    fakeJdk22(jdk, args);

    Result cached = cascade(Map.of("JAVA_HOME", jdk.toString()), "--version");

    assertThat(cached.exit()).as(cached.err()).isZero();
    assertThat(cached.out()).isEqualTo(expected);
    assertThat(Files.readString(args))
        .contains("-XX:SharedArchiveFile=" + TARGET + "/cascade-cli-")
        .contains("-XX:+AutoCreateSharedArchive")
        .doesNotContain("-XX:AOT");

    Result off =
        cascade(Map.of("JAVA_HOME", jdk.toString(), "CASCADE_CLI_CACHE", "off"), "--version");

    assertThat(off.out()).isEqualTo(expected);
    assertThat(Files.readString(args)).doesNotContain("-XX:AOT").doesNotContain("SharedArchive");
  }

  /**
   * A JDK 22 as far as {@code ./cascade} can tell (its release file), whose java refuses the AOT
   * options as a real JDK 22 does, records its arguments, and otherwise is this JDK.
   */
  private static void fakeJdk22(Path jdk, Path args) throws IOException {
    Files.createDirectories(jdk.resolve("bin"));
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"22.0.2\"\n");
    Files.createSymbolicLink(jdk.resolve("bin/javac"), Path.of(JAVA_HOME, "bin", "javac"));
    Path java = jdk.resolve("bin/java");
    Files.writeString(
        java,
        """
        #!/bin/sh
        printf '%%s\\n' "$@" > '%s'
        for arg in "$@"; do
          case "$arg" in -XX:AOT*) echo "Unrecognized VM option '${arg#-XX:}'" >&2; exit 1 ;; esac
        done
        exec '%s' "$@"
        """
            .formatted(args, Path.of(JAVA_HOME, "bin", "java")));
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
