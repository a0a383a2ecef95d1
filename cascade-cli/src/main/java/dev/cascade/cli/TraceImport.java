package dev.cascade.cli;

import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.core.Trace;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * Puts a trace folder into a data dir's traces folder, as an upload would: a profiler's folder
 * ({@code metadata.json} beside {@code traces/}) as it is, a bare Accel-Sim folder ({@code
 * kernelslist.g} and its kernels) under {@code traces/} with a {@code metadata.json} that gives the
 * architecture its kernels were traced on. Files are hard-linked where the file system allows, so a
 * big trace is not copied.
 */
final class TraceImport {

  private TraceImport() {}

  /** True when {@code argument} names a folder rather than a trace id. */
  static boolean isFolder(String argument) {
    return Files.isDirectory(Path.of(argument));
  }

  /** The folder of a trace's hardware measurements (Nsight Compute CSVs), kept beside traces/. */
  static final String HARDWARE = "hardware";

  /**
   * True when {@code argument} reads as a path rather than a trace id: it holds a slash (which no
   * id may) or is {@code .}, {@code ..} or starts with {@code ~}.
   */
  static boolean looksLikePath(String argument) {
    return argument.contains("/")
        || argument.contains(java.io.File.separator)
        || argument.equals(".")
        || argument.equals("..")
        || argument.startsWith("~");
  }

  /** Imports {@code folder} into {@code tracesFolder}; returns the trace id it got. */
  static String into(Path tracesFolder, Path folder) throws IOException {
    folder = folder.toAbsolutePath().normalize();
    String id = idFor(folder);
    Path target = tracesFolder.resolve(id);
    if (Files.exists(target)) {
      throw new FileAlreadyExistsException(
          target.toString(),
          null,
          "a trace \""
              + id
              + "\" is already in the data dir; run it by id, or use another"
              + " --data-dir");
    }
    Files.createDirectories(tracesFolder);
    Path staging = Files.createTempDirectory(tracesFolder, ".import-");
    try {
      String metadata;
      if (Files.isDirectory(folder.resolve("traces"))) {
        linkFiles(folder.resolve("traces"), staging.resolve("traces"));
        Path given = folder.resolve("metadata.json");
        metadata =
            Files.exists(given)
                ? Files.readString(given)
                : GeneratedMetadata.forTraces(folder.resolve("traces"));
      } else if (TraceLayout.holdsKernelsList(folder)) {
        linkFiles(folder, staging.resolve("traces"));
        metadata = GeneratedMetadata.forTraces(folder);
      } else {
        throw new IOException(
            folder
                + " holds no trace: expected metadata.json and traces/, or kernelslist.g and its"
                + " kernel files");
      }
      if (Files.isDirectory(folder.resolve(HARDWARE))) {
        // The GPU's own numbers (Nsight Compute CSVs) travel with the trace, beside traces/.
        linkFiles(folder.resolve(HARDWARE), staging.resolve(HARDWARE));
      }
      // metadata.json last: it is what says the upload is complete.
      Files.writeString(staging.resolve("metadata.json"), metadata);
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      return id;
    } catch (IOException | RuntimeException e) {
      deleteQuietly(staging);
      throw e;
    }
  }

  /** The folder's name as a trace id ({@code traces} folders take their parent's name). */
  static String idFor(Path folder) {
    Path named =
        folder.getFileName() != null && folder.getFileName().toString().equals("traces")
            ? folder.getParent()
            : folder;
    String name =
        named == null || named.getFileName() == null ? "trace" : named.getFileName().toString();
    String id = name.replaceAll("[^A-Za-z0-9._-]", "_");
    if (id.length() > 200) {
      id = id.substring(0, 200);
    }
    return Trace.isValidId(id) ? id : "trace";
  }

  private static void linkFiles(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path target = to.resolve(file.getFileName().toString());
        try {
          Files.createLink(target, file);
        } catch (IOException | UnsupportedOperationException e) {
          Files.copy(file, target);
        }
      }
    }
  }

  /** Deletes a folder and all it holds; what cannot be deleted is left (temporary folders). */
  static void deleteQuietly(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // A hidden staging folder or a temporary one left behind is harmless.
    }
  }
}
