package dev.cascade.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** I/O errors of the offline trace commands as one line that says which file failed and why. */
final class IoFailures {

  private IoFailures() {}

  /** One line saying which file failed and why, for an I/O error. */
  static String describe(IOException e) {
    if (e instanceof FileSystemException fileSystem && fileSystem.getReason() == null) {
      String why =
          e instanceof NoSuchFileException
              ? "no such file or folder"
              : e instanceof AccessDeniedException
                  ? "permission denied"
                  : e.getClass().getSimpleName();
      return fileSystem.getFile() + ": " + why;
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** {@code e} to throw out of a command, with {@link #describe} as its message. */
  static UncheckedIOException unchecked(IOException e) {
    return new UncheckedIOException(describe(e), e);
  }
}
