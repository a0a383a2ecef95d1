package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code ./mvnw verify} on a machine whose default java is 17: the wrapper finds a JDK
 * 21+ itself as {@code ./cascade} does ({@code .mvn/jdk.sh}), says so clearly when there is none,
 * and a JDK 23+ prints none of Maven's own {@code sun.misc.Unsafe} warnings.
 */
final class MavenWrapperIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path JAVA_17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");

  @Test
  void mvnw_withJava17OnPath_findsAJdk21OrNewer(@TempDir Path jvms) throws Exception {
    assumeJava17();
    // The JDK running these tests, as the one JDK 21+ "installed under /usr/lib/jvm".
    Files.createSymbolicLink(jvms.resolve("jdk-new"), Path.of(System.getProperty("java.home")));

    Result result =
        mvnw(
            Map.of(
                "PATH",
                JAVA_17.resolve("bin") + ":/usr/bin:/bin",
                "JDK_SEARCH_ROOT",
                jvms.toString()),
            "--version");

    assertThat(result.exit()).as(result.output()).isZero();
    assertThat(result.output()).contains("Java version: " + Runtime.version().feature() + ".");
  }

  @Test
  void mvnw_withNoJdk21_saysWhatIsNeededAndFails(@TempDir Path noJdks) throws Exception {
    assumeJava17();

    Result result =
        mvnw(
            Map.of(
                "PATH",
                JAVA_17.resolve("bin") + ":/usr/bin:/bin",
                "JDK_SEARCH_ROOT",
                noJdks.toString()),
            "--version");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.output())
        .contains("mvnw: needs a JDK 21 or newer; none found in JAVA_HOME, on PATH or under")
        .contains("apt-get install openjdk-21-jdk");
  }

  @Test
  void systemMvn_onJava17_saysToRunMvnwWhichFindsAJdk() throws Exception {
    assumeJava17();
    Path mvn = Path.of("/usr/bin/mvn");
    Assumptions.assumeTrue(Files.isExecutable(mvn), "needs a system Maven at " + mvn);
    List<String> command = List.of(mvn.toString(), "-o", "-B", "-N", "validate");
    ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
    builder.environment().clear();
    builder.environment().put("HOME", System.getProperty("user.home"));
    builder.environment().put("PATH", JAVA_17.resolve("bin") + ":/usr/bin:/bin");
    builder.environment().put("JAVA_HOME", JAVA_17.toString());
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String output;
    try {
      output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    } finally {
      process.destroyForcibly();
    }

    assertThat(process.exitValue()).as(output).isEqualTo(1);
    assertThat(output).contains("Cascade builds with JDK 21 or newer. Run ./mvnw instead of mvn");
  }

  @Test
  void mvnw_onAJdkThatWarnsAboutUnsafe_printsNoJvmWarnings() throws Exception {
    String home = System.getProperty("java.home");
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 23,
        "the tests run on Java " + Runtime.version().feature() + "; the warning is Java 23+'s");

    Result result = mvnw(Map.of("JAVA_HOME", home), "-q", "-B", "-N", "validate");

    assertThat(result.exit()).as(result.output()).isZero();
    assertThat(result.output()).doesNotContain("sun.misc.Unsafe").doesNotContain("WARNING");
  }

  private static void assumeJava17() {
    Assumptions.assumeTrue(
        Files.isExecutable(JAVA_17.resolve("bin/javac")),
        "needs a JDK 17 at "
            + JAVA_17
            + " to stand for an old default java"
            + " (apt-get install -y openjdk-17-jdk-headless)");
  }

  private record Result(int exit, String output) {}

  /** Runs the root's mvnw with only {@code env} (and HOME), output and errors together. */
  private static Result mvnw(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ROOT.resolve("mvnw").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
    builder.environment().clear();
    builder.environment().put("HOME", System.getProperty("user.home"));
    if (!env.containsKey("PATH")) {
      builder.environment().put("PATH", "/usr/bin:/bin");
    }
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    Process process = builder.start();
    try {
      byte[] output = process.getInputStream().readAllBytes();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
      return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly();
    }
  }
}
