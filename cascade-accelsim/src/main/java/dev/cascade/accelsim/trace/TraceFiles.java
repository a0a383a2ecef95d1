package dev.cascade.accelsim.trace;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.UnsupportedOptionsException;
import org.tukaani.xz.XZIOException;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/** Opening trace files (xz or not) and writing files so they appear whole or not at all. */
final class TraceFiles {

  /** Writes a file's content to a stream. */
  @FunctionalInterface
  interface Writer<R> {
    R write(OutputStream out) throws IOException;
  }

  private static final byte[] XZ_MAGIC = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0};

  private TraceFiles() {}

  /**
   * Opens {@code file} for reading: a {@code .tracez} as the text it holds ({@link Tracez}), else
   * decompressed when it starts with the xz magic bytes (whatever its name). Corrupt or truncated
   * xz data fails with a {@link TraceFormatException} naming the file.
   */
  static InputStream openDecompressed(Path file) throws IOException {
    if (Tracez.isTracez(file)) {
      return new BufferedInputStream(Tracez.openAsText(file), 1 << 16);
    }
    BufferedInputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    try {
      in.mark(XZ_MAGIC.length);
      byte[] head = in.readNBytes(XZ_MAGIC.length);
      in.reset();
      if (!Arrays.equals(head, XZ_MAGIC)) {
        return in;
      }
      return new XzErrors(new XZInputStream(in), file);
    } catch (XZIOException | EOFException e) {
      in.close();
      throw corrupt(file, e);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * Writes {@code target} through a hidden temporary file beside it, forced to disk and then
   * renamed over {@code target}, so a crash never leaves a partial file under the final name. The
   * content is xz-compressed at {@code xzPreset} when {@code xzPreset >= 0}. The temporary file is
   * deleted on failure.
   */
  static <R> R writeAtomically(Path target, int xzPreset, Writer<R> writer) throws IOException {
    Path temporary = newTemporary(target);
    try {
      R result;
      try (OutputStream file = Files.newOutputStream(temporary, StandardOpenOption.WRITE)) {
        if (xzPreset >= 0) {
          BufferedOutputStream buffered = new BufferedOutputStream(file, 1 << 16);
          XZOutputStream xz = new XZOutputStream(buffered, xzOptions(xzPreset));
          result = writer.write(xz);
          xz.finish();
          buffered.flush();
        } else {
          result = writer.write(file);
          file.flush();
        }
      }
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      moveIntoPlace(temporary, target);
      return result;
    } catch (IOException | RuntimeException | Error e) {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** A new empty file {@code .<name>.<random>.tmp} beside {@code target}. */
  static Path newTemporary(Path target) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    while (true) {
      Path temporary =
          folder.resolve(
              "."
                  + target.getFileName()
                  + "."
                  + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1)
                  + ".tmp");
      try {
        return Files.createFile(temporary);
      } catch (FileAlreadyExistsException taken) {
        // try another name
      }
    }
  }

  private static void moveIntoPlace(Path temporary, Path target) throws IOException {
    try {
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static LZMA2Options xzOptions(int preset) throws IOException {
    try {
      return new LZMA2Options(preset);
    } catch (UnsupportedOptionsException e) {
      throw new IllegalArgumentException("xz preset must be 0 to 9, not " + preset, e);
    }
  }

  static TraceFormatException corrupt(Path file, IOException cause) {
    String detail = cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")";
    String what = cause instanceof EOFException ? "ends early" : "is corrupt" + detail;
    return new TraceFormatException(
        file, 0, "the xz data " + what + "; check the upload or compress the trace again", cause);
  }

  /** Turns the xz library's format errors into {@link TraceFormatException}s naming the file. */
  private static final class XzErrors extends FilterInputStream {
    private final Path file;

    XzErrors(InputStream in, Path file) {
      super(in);
      this.file = file;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (XZIOException | EOFException e) {
        throw corrupt(file, e);
      }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      try {
        return in.read(buffer, offset, length);
      } catch (XZIOException | EOFException e) {
        throw corrupt(file, e);
      }
    }
  }
}
