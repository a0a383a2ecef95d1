package dev.cascade.core.internal.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The doctor's scratch folder: {@code <data dir>/work/doctor-*} (or a temporary folder when the
 * data dir takes no writes), removed when the doctor is done unless a failed run's files are kept
 * for the user to read ({@link #keep}).
 */
public final class DoctorWork implements AutoCloseable {

  private final Path folder;
  private boolean keep;

  private DoctorWork(Path folder) {
    this.folder = folder;
  }

  /** A new scratch folder in {@code dataDir}'s {@code work/}, or in the system's temporary one. */
  public static DoctorWork create(Path dataDir, boolean dataDirWritable) {
    try {
      if (dataDirWritable) {
        Path work = Files.createDirectories(dataDir.resolve("work"));
        return new DoctorWork(Files.createTempDirectory(work, "doctor-"));
      }
      return new DoctorWork(Files.createTempDirectory("cascade-doctor-"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the doctor's scratch folder", e);
    }
  }

  /** The folder. */
  public Path folder() {
    return folder;
  }

  /** A new folder inside, for one check. */
  Path subfolder(String name) throws IOException {
    return Files.createDirectories(folder.resolve(name));
  }

  /** Keeps the folder after {@link #close}, so a failed run's log can be read. */
  void keep() {
    keep = true;
  }

  @Override
  public void close() {
    if (keep) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(DoctorWork::deleteQuietly);
    } catch (IOException e) {
      // Scratch files left behind are harmless; the data dir's work/ is for such files.
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // as above
    }
  }
}
