package dev.cascade.core.internal.run;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Why a sim whose process ended without reporting its end failed, in words for people: its exit
 * code, whether its trace is gone, and the last lines of what it printed.
 */
final class SimExit {

  /** Lines of the sim's output the reason quotes. */
  static final int TAIL_LINES = 5;

  private static final int TAIL_BYTES = 4096;

  private SimExit() {}

  /**
   * {@code the simulator exited with code 1 before reporting its end; its output ends with: ...},
   * or, when the trace's folder is gone, that reason first.
   */
  static String reason(int exitCode, String traceId, Path traceDir, Path output) {
    StringBuilder reason = new StringBuilder();
    if (!Files.isDirectory(traceDir)) {
      reason.append(traceGone(traceId, traceDir)).append("; ");
    }
    reason.append("the simulator exited with code ").append(exitCode);
    reason.append(" before reporting its end");
    List<String> tail = lastLines(output, TAIL_LINES);
    reason.append(
        tail.isEmpty()
            ? " and printed nothing"
            : "; its output (" + output + ") ends with: " + String.join(" | ", tail));
    return reason.toString();
  }

  /** Why a sim cannot run, or failed, when its trace's folder was deleted under it. */
  static String traceGone(String traceId, Path traceDir) {
    return "the trace \"" + traceId + "\" is gone: its folder " + traceDir + " no longer exists";
  }

  /**
   * The last {@code lines} non-blank lines of {@code file}, from its last 4 KiB; none if absent.
   */
  static List<String> lastLines(Path file, int lines) {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long length = in.length();
      int size = (int) Math.min(length, TAIL_BYTES);
      byte[] bytes = new byte[size];
      in.seek(length - size);
      in.readFully(bytes);
      List<String> all =
          Arrays.stream(new String(bytes, StandardCharsets.UTF_8).split("\\R"))
              .map(String::strip)
              .filter(line -> !line.isEmpty())
              .toList();
      return all.subList(Math.max(0, all.size() - lines), all.size());
    } catch (IOException e) {
      return List.of(); // no output file: the process printed nothing
    }
  }
}
