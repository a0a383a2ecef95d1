package dev.cascade.core.internal.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The mark of a trace folder Cascade wrote whole itself (the seeded demo traces): there is no
 * upload to wait out, so the trace store processes it at first sight instead of after the upload
 * quiet period. The mark is a hidden file, which uploads never count as part of a trace, and it is
 * used once: a later change to the folder is an upload like any other.
 */
public final class WrittenWhole {

  static final String MARK = ".cascade-written-whole";

  private WrittenWhole() {}

  /** Marks {@code folder}, whose files are all written, as needing no quiet period. */
  public static void mark(Path folder) throws IOException {
    Files.writeString(folder.resolve(MARK), "written whole by Cascade; no upload to wait out\n");
  }

  /** True when {@code folder} was marked; the mark is removed, so it counts once. */
  static boolean take(Path folder) {
    try {
      return Files.deleteIfExists(folder.resolve(MARK));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
