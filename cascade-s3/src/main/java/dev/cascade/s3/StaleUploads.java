package dev.cascade.s3;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what abandoned uploads leave in a bucket folder: multipart uploads never completed nor
 * aborted (s3proxy's {@code .mpus-<upload id>-...} trees and {@code .s3proxy-mpu-stub-<upload id>}
 * at the bucket root) and objects never renamed into place ({@code <key>-<uuid>}), once nothing in
 * them has changed for a while. An upload still at work touches its files, so it is left alone.
 */
final class StaleUploads {

  private static final Logger log = LoggerFactory.getLogger(StaleUploads.class);

  private static final String UUID =
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

  /** An entry of a multipart upload at the bucket root; group 2 is its upload id. */
  private static final Pattern MULTIPART =
      Pattern.compile("\\.(mpus-|s3proxy-mpu-stub-)(" + UUID + ").*");

  private static final Pattern OBJECT_IN_FLIGHT = Pattern.compile(".+-" + UUID);

  private StaleUploads() {}

  /**
   * Deletes the leftovers of uploads under {@code bucket} that have not changed since {@code
   * cutoff}; returns how many files it deleted. Failures are logged, never thrown.
   */
  static int sweep(Path bucket, Instant cutoff) {
    if (!Files.isDirectory(bucket, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    // An upload's entries (its parts' tree, its stub) go together, once none of them changed.
    Map<String, List<Path>> uploads = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(bucket)) {
      for (Path entry : entries) {
        Matcher multipart = MULTIPART.matcher(entry.getFileName().toString());
        if (multipart.matches()) {
          uploads.computeIfAbsent(multipart.group(2), id -> new ArrayList<>()).add(entry);
        }
      }
    } catch (IOException e) {
      log.warn("cannot list the bucket folder \"{}\": {}", bucket, e.toString());
    }
    int deleted = 0;
    for (List<Path> upload : uploads.values()) {
      if (upload.stream().noneMatch(entry -> changedSince(entry, cutoff))) {
        for (Path entry : upload) {
          deleted += deleteTree(entry);
        }
      }
    }
    deleted += deleteObjectsInFlight(bucket, cutoff);
    if (deleted > 0) {
      log.info(
          "removed {} files of uploads abandoned before {} from \"{}\"", deleted, cutoff, bucket);
    }
    return deleted;
  }

  private static int deleteObjectsInFlight(Path bucket, Instant cutoff) {
    List<Path> stale = new ArrayList<>();
    try {
      Files.walkFileTree(
          bucket,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
              // The multipart trees are handled whole, above.
              return dir.getFileName().toString().startsWith(".") && !dir.equals(bucket)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              String name = file.getFileName().toString();
              // Hidden files are multipart stubs, which go with their upload (above).
              if (attributes.isRegularFile()
                  && !name.startsWith(".")
                  && OBJECT_IN_FLIGHT.matcher(name).matches()
                  && attributes.lastModifiedTime().toInstant().isBefore(cutoff)) {
                stale.add(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      log.warn("cannot walk the bucket folder \"{}\": {}", bucket, e.toString());
    }
    int deleted = 0;
    for (Path file : stale) {
      try {
        deleted += Files.deleteIfExists(file) ? 1 : 0;
      } catch (IOException e) {
        log.warn("cannot delete the abandoned upload file \"{}\": {}", file, e.toString());
      }
    }
    return deleted;
  }

  /** True when {@code path}, or anything under it, was modified at or after {@code cutoff}. */
  private static boolean changedSince(Path path, Instant cutoff) {
    try (Stream<Path> paths = Files.walk(path)) {
      return paths.anyMatch(p -> !modified(p).isBefore(cutoff));
    } catch (IOException | RuntimeException e) {
      return true; // when in doubt, keep it
    }
  }

  private static Instant modified(Path path) {
    try {
      FileTime time = Files.getLastModifiedTime(path, LinkOption.NOFOLLOW_LINKS);
      return time.toInstant();
    } catch (IOException e) {
      return Instant.MAX;
    }
  }

  private static int deleteTree(Path root) {
    int deleted = 0;
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        boolean file = Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
        if (Files.deleteIfExists(path) && file) {
          deleted++;
        }
      }
    } catch (IOException | RuntimeException e) {
      log.warn("cannot delete the abandoned multipart upload \"{}\": {}", root, e.toString());
    }
    return deleted;
  }
}
