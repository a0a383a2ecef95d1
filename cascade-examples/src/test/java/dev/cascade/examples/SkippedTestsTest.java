package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SkippedTestsTest {

  @TempDir Path root;

  @Test
  void summary_listsEachReasonOnceWithItsTestsAndLeavesOutOldReports() throws IOException {
    report(
        "cascade-core/target/failsafe-reports/TEST-dev.cascade.core.ui.UiBrowserIT.xml",
        """
        <testsuite name="dev.cascade.core.ui.UiBrowserIT" tests="3" skipped="2">
          <testcase name="a" classname="dev.cascade.core.ui.UiBrowserIT">
            <skipped message="browser tests need Debian&apos;s chromium"/>
          </testcase>
          <testcase name="b" classname="dev.cascade.core.ui.UiBrowserIT">
            <skipped message="browser tests need Debian&apos;s chromium"/>
          </testcase>
          <testcase name="c" classname="dev.cascade.core.ui.UiBrowserIT"/>
        </testsuite>
        """);
    report(
        "cascade-accelsim/target/surefire-reports/TEST-dev.cascade.accelsim.RealIT.xml",
        """
        <testsuite name="dev.cascade.accelsim.RealIT" tests="1" skipped="1">
          <testcase name="a" classname="dev.cascade.accelsim.RealIT">
            <skipped message="CASCADE_ACCELSIM_DIR not set"/>
          </testcase>
        </testsuite>
        """);
    Path old =
        report(
            "cascade-cli/target/surefire-reports/TEST-dev.cascade.cli.OldTest.xml",
            """
            <testsuite name="dev.cascade.cli.OldTest" tests="1" skipped="1">
              <testcase name="a" classname="dev.cascade.cli.OldTest">
                <skipped message="from an earlier build"/>
              </testcase>
            </testsuite>
            """);
    Instant start = Instant.now().minusSeconds(60);
    Files.setLastModifiedTime(old, FileTime.from(start.minusSeconds(3600)));

    assertThat(SkippedTests.summary(root, start))
        .containsExactly(
            "[skipped] Skipped: 3 tests, by reason:",
            "[skipped]   1 in RealIT: CASCADE_ACCELSIM_DIR not set",
            "[skipped]   2 in UiBrowserIT: browser tests need Debian's chromium");
  }

  @Test
  void summary_withNothingSkipped_saysSo() throws IOException {
    report(
        "cascade-api/target/surefire-reports/TEST-dev.cascade.api.AllTest.xml",
        """
        <testsuite name="AllTest" tests="1"><testcase name="a" classname="AllTest"/></testsuite>
        """);

    assertThat(SkippedTests.summary(root, Instant.EPOCH))
        .containsExactly("[skipped] no tests skipped (1 test reports read)");
  }

  private Path report(String path, String xml) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, xml, StandardCharsets.UTF_8);
  }
}
