package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's embedding example, which DocsCodeTest keeps equal to {@link ReadmeExample}, runs as
 * a user runs it: its own JVM, a new data dir, nothing else set up.
 */
final class ReadmeExampleIT {

  @TempDir Path dir;

  @Test
  void readmeExample_runsTheDemoOnAFreshDataDirAndPrintsTheResults() throws Exception {
    Path dataDir = dir.resolve("cascade-data");
    Path out = dir.resolve("out.txt");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ReadmeExample.class.getName(),
                dataDir.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    builder.environment().put("CASCADE_EMULATE_SPEED", "0"); // the test's only shortcut
    Process process = builder.start();
    try {
      assertThat(process.waitFor(3, TimeUnit.MINUTES)).as(() -> read(out)).isTrue();
    } finally {
      process.destroyForcibly().waitFor();
    }

    assertThat(process.exitValue()).as(() -> read(out)).isZero();
    List<String> results =
        read(out).lines().filter(line -> line.startsWith("ConfigResult[")).toList();
    assertThat(results)
        .singleElement()
        .asString()
        .contains("gpuConfig=SM90_H100")
        .contains("replicas=4, succeeded=4");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }
}
