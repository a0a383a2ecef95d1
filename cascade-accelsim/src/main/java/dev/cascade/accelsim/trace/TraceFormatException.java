package dev.cascade.accelsim.trace;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A trace file or kernels list whose content Cascade cannot read. The message names the file and,
 * when there is one, the line: {@code /traces/kernel-3.trace:42: thread block (4,0,0) is outside
 * the grid (4,1,1); ...}.
 */
public final class TraceFormatException extends RuntimeException {

  private final transient Path file;
  private final long line;
  private final String problem;

  /**
   * @param file the file being read
   * @param line the 1-based line number, or 0 when the problem is not on one line
   * @param problem what is wrong, with the offending value in quotes, and what to do about it
   */
  public TraceFormatException(Path file, long line, String problem) {
    this(file, line, problem, null);
  }

  /** As {@link #TraceFormatException(Path, long, String)}, with the exception that caused it. */
  public TraceFormatException(Path file, long line, String problem, Throwable cause) {
    super(where(file, line) + ": " + problem, cause);
    this.file = Objects.requireNonNull(file, "file");
    this.line = line;
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /** The file being read. */
  public Path file() {
    return file;
  }

  /** The 1-based line number, or 0 when the problem is not on one line. */
  public long line() {
    return line;
  }

  /** The message without the {@code file:line: } prefix. */
  public String problem() {
    return problem;
  }

  private static String where(Path file, long line) {
    return line > 0 ? file + ":" + line : String.valueOf(file);
  }
}
