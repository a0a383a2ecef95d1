package dev.cascade.accelsim.trace;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/** The real traces under {@code ../shared/fixtures}, and small helpers for trace tests. */
final class TraceFixtures {

  static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  static final Path REAL_TRACES = FIXTURES.resolve("accelsim/real-traces");
  static final Path GEMM = REAL_TRACES.resolve("flashinfer-gemm");
  static final Path PREFILL = REAL_TRACES.resolve("flashinfer-prefill");
  static final Path PAIR = REAL_TRACES.resolve("synthetic-r1-postproc-pair");

  /** A raw 11-id trace with two CUDA contexts and Accel-Sim 2.0's post-processor's outputs. */
  static final Path ACCELSIM2 = FIXTURES.resolve("accelsim/accelsim2/gemm-2ctx-c211");

  private TraceFixtures() {}

  /** Skips the test when the fixtures are not beside the repository (a fresh clone). */
  static void assumeFixtures() {
    assumeTrue(
        Files.isDirectory(REAL_TRACES),
        "needs the fixtures at "
            + REAL_TRACES
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
  }

  /** Skips the test when the Accel-Sim 2.0 fixture is not beside the repository. */
  static void assumeAccelSim2Fixture() {
    assumeTrue(
        Files.isDirectory(ACCELSIM2),
        "needs the fixture at " + ACCELSIM2 + " (beside the clone at ../shared/fixtures)");
  }

  /** Copies every file of {@code from} (not recursively) into {@code to}. */
  static void copyFiles(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.list(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    }
  }

  /** A file's bytes, decompressed when its name ends in .xz. */
  static byte[] readAll(Path file) throws IOException {
    if (!file.getFileName().toString().endsWith(".xz")) {
      return Files.readAllBytes(file);
    }
    try (InputStream in = new XZInputStream(Files.newInputStream(file))) {
      return in.readAllBytes();
    }
  }

  static String readText(Path file) throws IOException {
    return new String(readAll(file), StandardCharsets.UTF_8);
  }

  /** Writes {@code text}, xz-compressed when the name ends in .xz. */
  static Path write(Path file, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (!file.getFileName().toString().endsWith(".xz")) {
      return Files.write(file, bytes);
    }
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (OutputStream out = new XZOutputStream(compressed, new LZMA2Options(1))) {
      out.write(bytes);
    }
    return Files.write(file, compressed.toByteArray());
  }

  /**
   * Turns a post-processed trace back into a raw one, independently of the code under test: the
   * header, then every instruction with its {@code x y z warp } prefix, interleaved round-robin
   * over warps with the thread blocks in descending order (the post-processor must sort them), and
   * every LDGSTS instruction preceded by a twin (its PC replaced by {@code twin}) that the
   * post-processor must drop.
   */
  static String rawFromProcessed(String traceg) {
    int firstBlock = traceg.indexOf("\n#BEGIN_TB\n");
    String echoed = traceg.substring(0, firstBlock);
    // The echoed part ends with the raw file's final empty line; the raw file ends in '\n'.
    String header = echoed.substring(0, echoed.length() - 1);
    List<Deque<String>> warps = new ArrayList<>();
    String block = null;
    String prefix = null;
    Deque<String> warp = null;
    for (String line : traceg.substring(firstBlock).split("\n")) {
      if (line.startsWith("thread block = ")) {
        block = line.substring("thread block = ".length()).replace(',', ' ');
      } else if (line.startsWith("warp = ")) {
        prefix = block + " " + line.substring("warp = ".length()) + " ";
        warp = new ArrayDeque<>();
        warps.add(0, warp);
      } else if (!line.isEmpty() && !line.startsWith("#") && !line.startsWith("insts = ")) {
        if (isLdgsts(line)) {
          warp.add(prefix + line.replaceFirst("^\\S+", "twin"));
        }
        warp.add(prefix + line);
      }
    }
    StringBuilder raw = new StringBuilder(header);
    boolean any = true;
    while (any) {
      any = false;
      for (Deque<String> queue : warps) {
        for (int i = 0; i < 3 && !queue.isEmpty(); i++) {
          raw.append(queue.removeFirst()).append('\n');
          any = true;
        }
      }
    }
    return raw.toString();
  }

  private static boolean isLdgsts(String processedLine) {
    String[] fields = processedLine.trim().split("\\s+");
    int destinations = Integer.parseInt(fields[2]);
    return fields[3 + destinations].contains("LDGSTS");
  }
}
