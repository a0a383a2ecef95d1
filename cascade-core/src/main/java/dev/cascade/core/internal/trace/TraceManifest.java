package dev.cascade.core.internal.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A trace's files with their sizes and SHA-256, and one content hash over them all: what a sim that
 * fetches its trace (no shared disk) downloads and checks, and the key of its node's cache. Kept
 * per trace while no file's size or modification time changes, so 64 sims ask for it cheaply.
 *
 * @param traceId the trace
 * @param contentHash SHA-256 over every file's path and hash, in path order
 * @param files every regular file under the trace's folder, by path relative to it
 */
public record TraceManifest(String traceId, String contentHash, List<TraceFile> files) {

  /** One file of the trace. */
  public record TraceFile(String path, long size, String sha256) {}

  private record Stamped(List<String> stamp, TraceManifest manifest) {}

  private static final Map<Path, Stamped> CACHE = new ConcurrentHashMap<>();

  /** The manifest of the trace in {@code folder}, hashed again only when a file changed. */
  public static TraceManifest of(String traceId, Path folder) {
    List<Path> paths = filesUnder(folder);
    List<String> stamp = new ArrayList<>();
    for (Path file : paths) {
      try {
        stamp.add(file + "|" + Files.size(file) + "|" + Files.getLastModifiedTime(file));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    Stamped known = CACHE.get(folder);
    if (known != null
        && known.stamp().equals(stamp)
        && known.manifest().traceId().equals(traceId)) {
      return known.manifest();
    }
    List<TraceFile> files = new ArrayList<>();
    MessageDigest whole = sha256();
    for (Path file : paths) {
      String relative = folder.relativize(file).toString().replace('\\', '/');
      String hash = hashOf(file);
      try {
        files.add(new TraceFile(relative, Files.size(file), hash));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
      whole.update((relative + "\0" + hash + "\n").getBytes(StandardCharsets.UTF_8));
    }
    TraceManifest manifest =
        new TraceManifest(traceId, HexFormat.of().formatHex(whole.digest()), List.copyOf(files));
    CACHE.put(folder, new Stamped(stamp, manifest));
    return manifest;
  }

  /** The file at {@code path} when it is one of the manifest's; empty otherwise. */
  public java.util.Optional<TraceFile> file(String path) {
    return files.stream().filter(f -> f.path().equals(path)).findFirst();
  }

  private static List<Path> filesUnder(Path folder) {
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the trace folder " + folder, e);
    }
  }

  private static String hashOf(Path file) {
    MessageDigest digest = sha256();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
