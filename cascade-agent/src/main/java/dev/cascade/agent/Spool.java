package dev.cascade.agent;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Where the sim agent keeps every chunk it produced until the app has confirmed the whole output:
 * one file per chunk, {@code 0000000042.chunk}, written before the chunk is sent. The agent never
 * holds more than one chunk in memory this way, however long the app stays away. A chunk that
 * cannot be written (disk full) is kept in memory instead, so none is ever dropped.
 */
final class Spool {

  private static final String SUFFIX = ".chunk";

  private final Path dir;
  private final Map<Long, byte[]> inMemory = new ConcurrentHashMap<>();

  /**
   * When each chunk's last bytes were read, in epoch milliseconds, by seq (0 when unknown): sent
   * with it, again too. Seqs count up from 0, so an array: 8 bytes a chunk, for a log of any
   * length.
   */
  private long[] readAt = new long[64];

  private final Consumer<String> warn;
  private volatile boolean warned;

  /**
   * @param warn told once when a chunk has to be kept in memory
   * @throws IOException when the folder cannot be created
   */
  Spool(Path dir, Consumer<String> warn) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.warn = warn;
  }

  Path dir() {
    return dir;
  }

  /**
   * @param readAtMillis when the chunk's last bytes were read from the simulator, in milliseconds
   *     since the epoch
   */
  void write(long seq, byte[] bytes, long readAtMillis) {
    stamp(seq, readAtMillis);
    Path file = file(seq);
    Path temporary = dir.resolve(name(seq) + ".tmp");
    try {
      Files.write(temporary, bytes);
      try {
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      inMemory.put(seq, bytes);
      if (!warned) {
        warned = true;
        warn.accept(
            "cannot write chunk "
                + seq
                + " to the spool folder "
                + dir
                + " ("
                + e.getMessage()
                + "); keeping chunks in memory until it can");
      }
    }
  }

  byte[] read(long seq) throws IOException {
    byte[] held = inMemory.get(seq);
    return held != null ? held : Files.readAllBytes(file(seq));
  }

  /** When chunk {@code seq}'s last bytes were read, in epoch milliseconds; null when unknown. */
  synchronized Long readAt(long seq) {
    return seq >= 0 && seq < readAt.length && readAt[(int) seq] != 0 ? readAt[(int) seq] : null;
  }

  private synchronized void stamp(long seq, long readAtMillis) {
    if (seq < 0 || seq >= Integer.MAX_VALUE - 8) {
      return; // beyond any real log: sent without a stamp, timed by its arrival
    }
    if (seq >= readAt.length) {
      readAt =
          Arrays.copyOf(
              readAt, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(seq + 1, 2L * readAt.length)));
    }
    readAt[(int) seq] = readAtMillis;
  }

  /** Deletes every chunk file and the folder, if it is then empty. */
  void deleteAll() {
    inMemory.clear();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.endsWith(SUFFIX) || name.endsWith(SUFFIX + ".tmp")) {
          Files.deleteIfExists(file);
        }
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // A folder left behind is harmless.
    }
  }

  private Path file(long seq) {
    return dir.resolve(name(seq) + SUFFIX);
  }

  private static String name(long seq) {
    return String.format(Locale.ROOT, "%010d", seq);
  }
}
