package dev.cascade.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The code in the docs is the examples' code: every fenced block right after a marker
 *
 * <pre>
 * &lt;!-- code: cascade-examples/src/.../Example.java#NAME --&gt;
 * </pre>
 *
 * must equal the lines between {@code // tag::NAME[]} and {@code // end::NAME[]} in that file,
 * without their common indentation. To bring the docs up to date after changing an example, run
 * this test with {@code -Dcascade.docs.update=true}: it rewrites the blocks instead of failing.
 */
final class DocsCodeTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Pattern BLOCK =
      Pattern.compile(
          "<!-- code: (?<file>[^#\\s]+)#(?<tag>[\\w-]+) -->\\n```(?<lang>\\w*)\\n(?<code>.*?)```",
          Pattern.DOTALL);

  @ParameterizedTest
  @ValueSource(strings = {"docs/harness.md", "docs/embedding.md", "README.md"})
  void everyCodeBlock_isTheTaggedRegionOfItsExample(String doc) throws IOException {
    Path file = ROOT.resolve(doc);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    List<String> problems = new ArrayList<>();
    StringBuilder updated = new StringBuilder();
    Matcher block = BLOCK.matcher(text);
    int blocks = 0;
    while (block.find()) {
      blocks++;
      String region = region(ROOT.resolve(block.group("file")), block.group("tag"));
      if (!block.group("code").equals(region)) {
        problems.add(
            doc
                + ": the block from "
                + block.group("file")
                + "#"
                + block.group("tag")
                + " differs from the example; it is now:\n"
                + region);
      }
      block.appendReplacement(
          updated,
          Matcher.quoteReplacement(
              "<!-- code: "
                  + block.group("file")
                  + "#"
                  + block.group("tag")
                  + " -->\n```"
                  + block.group("lang")
                  + "\n"
                  + region
                  + "```"));
    }
    block.appendTail(updated);
    assertThat(blocks).as("code blocks taken from the examples in " + doc).isPositive();
    if (!problems.isEmpty() && Boolean.getBoolean("cascade.docs.update")) {
      Files.writeString(file, updated.toString(), StandardCharsets.UTF_8);
      return;
    }
    assertThat(problems)
        .as("run with -Dcascade.docs.update=true to copy the examples into " + doc)
        .isEmpty();
  }

  @Test
  void region_isTheLinesBetweenTheTagsWithoutTheirIndentation() throws IOException {
    Path source = Files.createTempFile("Example", ".java");
    try {
      Files.writeString(
          source,
          """
          class Example {
            // tag::body[]

            void run() {
              // tag::inner[]
              go();
              // end::inner[]
            }
            // end::body[]
          }
          """);

      assertThat(region(source, "body")).isEqualTo("void run() {\n  go();\n}\n");
      assertThat(region(source, "inner")).isEqualTo("go();\n");
      assertThatThrownBy(() -> region(source, "missing"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no region \"missing\"");
    } finally {
      Files.delete(source);
    }
  }

  /**
   * The lines between the tags, without other tags' lines, blank lines at either end, and their
   * common indentation.
   */
  static String region(Path source, String tag) throws IOException {
    List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
    int start = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.equals("// tag::" + tag + "[]")) {
        start = i;
      } else if (line.equals("// end::" + tag + "[]")) {
        end = i;
      }
    }
    if (start < 0 || end < start) {
      throw new IllegalArgumentException(
          "no region \""
              + tag
              + "\" (// tag::"
              + tag
              + "[] ... // end::"
              + tag
              + "[]) in "
              + source);
    }
    List<String> region =
        new ArrayList<>(
            lines.subList(start + 1, end).stream()
                .filter(line -> !line.strip().matches("// (tag|end)::[\\w-]+\\[\\]"))
                .toList());
    while (!region.isEmpty() && region.getFirst().isBlank()) {
      region.removeFirst();
    }
    while (!region.isEmpty() && region.getLast().isBlank()) {
      region.removeLast();
    }
    int indent =
        region.stream()
            .filter(line -> !line.isBlank())
            .mapToInt(line -> line.length() - line.stripLeading().length())
            .min()
            .orElse(0);
    StringBuilder text = new StringBuilder();
    for (String line : region) {
      text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
    }
    return text.toString();
  }
}
