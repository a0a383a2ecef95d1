package dev.cascade.core.internal.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What a config directory looked like on disk: when any of its files changes (its {@code
 * gpgpusim.config}, its {@code trace.config}, or the {@code trace.config} Accel-Sim keeps apart),
 * the stamp changes, and the catalog reads the directory again.
 */
record DirectoryStamp(
    Path directory,
    long configModified,
    long configSize,
    long traceModified,
    long traceApartModified) {

  /**
   * @param traceConfigs where Accel-Sim keeps each config's {@code trace.config} apart; null for
   *     none
   */
  static DirectoryStamp of(Path directory, Path traceConfigs) {
    long[] config = stamp(directory.resolve("gpgpusim.config"));
    long[] trace = stamp(directory.resolve("trace.config"));
    long[] apart =
        traceConfigs == null
            ? new long[] {-1, -1}
            : stamp(
                traceConfigs.resolve(directory.getFileName().toString()).resolve("trace.config"));
    return new DirectoryStamp(directory, config[0], config[1], trace[0], apart[0]);
  }

  // {modified millis, size}, or {-1, -1} when the file is absent or unreadable.
  private static long[] stamp(Path file) {
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(file, BasicFileAttributes.class, new LinkOption[0]);
      return new long[] {attributes.lastModifiedTime().toMillis(), attributes.size()};
    } catch (IOException e) {
      return new long[] {-1, -1};
    }
  }
}
