package dev.cascade.core.internal.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What a config directory looked like on disk: when any of its two files changes, the stamp
 * changes, and the catalog reads the directory again.
 */
record DirectoryStamp(Path directory, long configModified, long configSize, long traceModified) {

  static DirectoryStamp of(Path directory) {
    long[] config = stamp(directory.resolve("gpgpusim.config"));
    long[] trace = stamp(directory.resolve("trace.config"));
    return new DirectoryStamp(directory, config[0], config[1], trace[0]);
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
