package dev.cascade.core.internal.trace;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a trace folder holds at one moment: every regular file with its size and modification time,
 * split into the trace's own files ({@code content}, relative to the trace folder) and upload
 * bookkeeping ({@code activity}, see {@link UploadFiles}). Two snapshots that are equal mean
 * nothing under the trace changed in between; comparing them is how the quiet period is measured.
 * Symbolic links are never followed nor counted.
 */
record FolderSnapshot(Map<String, Stamp> content, Map<String, Stamp> activity) {

  private static final Logger log = LoggerFactory.getLogger(FolderSnapshot.class);
  private static final int MAX_DEPTH = 32;

  /** A file's size and modification time; a file still being written changes one or both. */
  record Stamp(long size, FileTime modified) {}

  FolderSnapshot {
    content = Map.copyOf(content);
    activity = Map.copyOf(activity);
  }

  static FolderSnapshot empty() {
    return new FolderSnapshot(Map.of(), Map.of());
  }

  /**
   * Walks {@code traceFolder}, and counts everything under {@code otherActivity} (folders elsewhere
   * that belong to this trace's uploads, such as s3proxy's multipart trees) as activity.
   */
  static FolderSnapshot take(Path traceFolder, Collection<Path> otherActivity) {
    Map<String, Stamp> content = new TreeMap<>();
    Map<String, Stamp> activity = new TreeMap<>();
    walk(
        traceFolder,
        (relative, stamp) -> {
          if (UploadFiles.isUploadBookkeeping(relative)) {
            activity.put(key(relative), stamp);
          } else {
            content.put(key(relative), stamp);
          }
        });
    for (Path folder : otherActivity) {
      walk(folder, (relative, stamp) -> activity.put(folder + "/" + key(relative), stamp));
    }
    return new FolderSnapshot(content, activity);
  }

  /** True when the trace has at least one file of its own (temporary files do not count). */
  boolean hasContent() {
    return !content.isEmpty();
  }

  /** True when the trace holds this file ({@code "traces/kernelslist.g"}). */
  boolean contains(String relativePath) {
    return content.containsKey(relativePath);
  }

  /** The size on disk of the trace's own files. */
  long sizeBytes() {
    return content.values().stream().mapToLong(Stamp::size).sum();
  }

  /** A relative path as a key, with {@code /} between elements on every platform. */
  private static String key(Path relative) {
    StringBuilder key = new StringBuilder();
    for (Path element : relative) {
      if (!key.isEmpty()) {
        key.append('/');
      }
      key.append(element);
    }
    return key.toString();
  }

  private interface FileSink {
    void accept(Path relative, Stamp stamp);
  }

  private static void walk(Path root, FileSink sink) {
    if (!Files.isDirectory(root)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          EnumSet.noneOf(FileVisitOption.class),
          MAX_DEPTH,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                sink.accept(
                    root.relativize(file),
                    new Stamp(attributes.size(), attributes.lastModifiedTime()));
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              // Files come and go while an upload runs; what vanished is simply not there.
              if (!(e instanceof NoSuchFileException)) {
                log.debug("cannot read \"{}\" while scanning a trace: {}", file, e.toString());
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      log.debug("cannot scan \"{}\": {}", root, e.toString());
    }
  }
}
