package dev.cascade.core.internal.doctor;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** A failure's reason in words a person reads, never a class name. */
final class Words {

  private Words() {}

  static String of(Throwable e) {
    if (e instanceof AccessDeniedException denied) {
      return "permission denied (" + denied.getFile() + ")";
    }
    if (e instanceof NoSuchFileException missing) {
      return "no such file or folder (" + missing.getFile() + ")";
    }
    if (e instanceof NotDirectoryException notFolder) {
      return "not a folder (" + notFolder.getFile() + ")";
    }
    if (e instanceof FileAlreadyExistsException exists) {
      return "a file is in the way (" + exists.getFile() + ")";
    }
    if (e instanceof FileSystemException system && system.getReason() != null) {
      return system.getReason() + " (" + system.getFile() + ")";
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? "an unexpected error" : message;
  }
}
