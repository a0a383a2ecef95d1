package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The build's last test (cascade-examples is the last module, and this class runs after its other
 * tests): prints what the build's tests skipped and why, so {@code ./mvnw verify} says it, not only
 * {@code .ci/run}. The build started when the Maven JVM that forked this one did.
 */
@Order(Integer.MAX_VALUE)
final class SkippedTestsSummaryIT {

  @Test
  void printsWhatTheBuildSkippedAndWhy() throws Exception {
    Instant buildStart = mavenStart().orElse(Instant.EPOCH);

    List<String> summary =
        SkippedTests.summary(Path.of("").toAbsolutePath().getParent(), buildStart);

    summary.forEach(System.out::println);
    assertThat(summary).isNotEmpty();
  }

  /** When the nearest ancestor process running Maven (its classworlds launcher) started. */
  static Optional<Instant> mavenStart() {
    for (Optional<ProcessHandle> process = ProcessHandle.current().parent();
        process.isPresent();
        process = process.get().parent()) {
      ProcessHandle.Info info = process.get().info();
      if (info.commandLine().orElse("").contains("org.codehaus.plexus.classworlds.launcher")) {
        return info.startInstant();
      }
    }
    return Optional.empty();
  }
}
