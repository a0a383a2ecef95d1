package dev.cascade.accelsim.trace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a trace's kernels list is. A trace is given as any of: the list file itself, a folder
 * holding it, or a Cascade trace folder ({@code <trace>/metadata.json} and {@code <trace>/traces/})
 * holding it in {@code traces/}.
 */
public final class TraceLayout {

  /** The post-processed list Accel-Sim reads. */
  public static final String PROCESSED_LIST = "kernelslist.g";

  /** The raw list NVBit's tracer writes. */
  public static final String RAW_LIST = "kernelslist";

  /** The sub-folder of a Cascade trace folder holding the trace files. */
  public static final String TRACES_FOLDER = "traces";

  private TraceLayout() {}

  /**
   * The {@code kernelslist.g} of {@code path}: {@code path} itself when it is a file, else {@code
   * path/kernelslist.g}, else {@code path/traces/kernelslist.g}; empty when there is none.
   */
  public static Optional<Path> findProcessedList(Path path) {
    return find(path, PROCESSED_LIST);
  }

  /**
   * The raw {@code kernelslist} of {@code path}: {@code path} itself when it is a file, else {@code
   * path/kernelslist}, else {@code path/traces/kernelslist}; empty when there is none.
   */
  public static Optional<Path> findRawList(Path path) {
    return find(path, RAW_LIST);
  }

  private static Optional<Path> find(Path path, String name) {
    if (Files.isRegularFile(path)) {
      return Optional.of(path);
    }
    for (Path candidate :
        new Path[] {path.resolve(name), path.resolve(TRACES_FOLDER).resolve(name)}) {
      if (Files.isRegularFile(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
