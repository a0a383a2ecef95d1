package dev.cascade.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Undumpable#apply} in a JVM of its own, as the agent's: on Linux with Java 22 or later it
 * is done (prctl's own {@code PR_GET_DUMPABLE} reads 0 after it), and with native access allowed,
 * as the agent's command line allows it, the JVM says nothing about it.
 */
final class UndumpableIT {

  @TempDir Path dir;

  @Test
  void apply_inAJvmOfItsOwn_isDoneWithoutAWord() throws Exception {
    Assumptions.assumeTrue(
        System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"),
        "prctl is Linux's; this is " + System.getProperty("os.name"));
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 22,
        "the foreign-function API is final from Java 22; run the build on a JDK 22 or later"
            + " (JAVA_HOME) to check the call");
    Process probe =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    classesOf(UndumpableProbe.class)
                        + File.pathSeparator
                        + SimAgentMain.classPath(),
                    UndumpableProbe.class.getName()))
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile())
            .start();
    try {
      assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      probe.destroyForcibly();
    }

    assertThat(read("out")).isEqualTo("true done\n");
    assertThat(read("err")).isEmpty();
    assertThat(probe.exitValue()).isZero();
  }

  private String read(String name) throws Exception {
    return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
  }

  private static String classesOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
