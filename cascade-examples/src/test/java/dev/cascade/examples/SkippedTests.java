package dev.cascade.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a build skipped and why, from the surefire and failsafe reports of every module under a root
 * ({@code MODULE/target/surefire-reports} and {@code failsafe-reports}) written since the build
 * started: each skip reason once, with how many tests gave it and in which classes. Maven's own
 * summary only counts skips; a test here skips with a JUnit assumption that says what is missing
 * (chromium, a Slurm cluster, {@code CASCADE_ACCELSIM_DIR}, the fixtures).
 */
final class SkippedTests {

  private SkippedTests() {}

  /** The summary's lines; a report that cannot be read is named and passed over. */
  static List<String> summary(Path root, Instant since) throws IOException {
    Map<String, List<String>> byReason = new TreeMap<>();
    List<String> lines = new ArrayList<>();
    List<Path> reports = reports(root, since);
    for (Path report : reports) {
      try {
        NodeList cases =
            DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(report.toFile())
                .getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
          Element test = (Element) cases.item(i);
          NodeList skipped = test.getElementsByTagName("skipped");
          if (skipped.getLength() > 0) {
            String reason = ((Element) skipped.item(0)).getAttribute("message").strip();
            String className = test.getAttribute("classname");
            byReason
                .computeIfAbsent(
                    reason.isEmpty() ? "(no reason given)" : reason, r -> new ArrayList<>())
                .add(className.substring(className.lastIndexOf('.') + 1));
          }
        }
      } catch (Exception e) {
        lines.add("[skipped] cannot read " + report + ": " + e.getMessage());
      }
    }
    int total = byReason.values().stream().mapToInt(List::size).sum();
    if (total == 0) {
      lines.add("[skipped] no tests skipped (" + reports.size() + " test reports read)");
      return lines;
    }
    lines.add("[skipped] Skipped: " + total + (total == 1 ? " test" : " tests") + ", by reason:");
    byReason.forEach(
        (reason, tests) ->
            lines.add(
                "[skipped]   "
                    + tests.size()
                    + " in "
                    + String.join(", ", new TreeSet<>(tests))
                    + ": "
                    + reason));
    return lines;
  }

  private static List<Path> reports(Path root, Instant since) throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.sorted().toList()) {
        for (String folder : List.of("surefire-reports", "failsafe-reports")) {
          Path reports = module.resolve("target").resolve(folder);
          if (!Files.isDirectory(reports)) {
            continue;
          }
          try (Stream<Path> files = Files.list(reports)) {
            for (Path file : files.sorted().toList()) {
              String name = file.getFileName().toString();
              if (name.startsWith("TEST-")
                  && name.endsWith(".xml")
                  && !Files.getLastModifiedTime(file).toInstant().isBefore(since)) {
                found.add(file);
              }
            }
          }
        }
      }
    }
    return found;
  }
}
