package dev.cascade.core.internal.store;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a write that failed because the disk would not take it (read-only, full, an I/O error) from
 * one that failed for any other reason, and remembers the fault until a write works again: such a
 * write is {@code unavailable} (503) with the cause, logged once when the fault begins and once
 * when it ends, never a stack trace per request.
 */
final class StorageFaults {

  private static final Logger log = LoggerFactory.getLogger(StorageFaults.class);

  // SQLite's primary result codes for a disk that will not take a write.
  private static final int SQLITE_PERM = 3;
  private static final int SQLITE_READONLY = 8;
  private static final int SQLITE_IOERR = 10;
  private static final int SQLITE_FULL = 13;
  private static final int SQLITE_CANTOPEN = 14;

  private final Path file;
  private final AtomicReference<String> fault = new AtomicReference<>();

  StorageFaults(Path file) {
    this.file = file;
  }

  /** The current fault, in words; empty while writes work. */
  Optional<String> current() {
    return Optional.ofNullable(fault.get());
  }

  /**
   * True when {@code e} says the disk would not take the write. A transaction that SQLite rolled
   * back by itself after such an error later fails with "no transaction is active": while a fault
   * is known, that counts too.
   */
  boolean isStorageFault(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    if (primary == SQLITE_PERM
        || primary == SQLITE_READONLY
        || primary == SQLITE_IOERR
        || primary == SQLITE_FULL
        || primary == SQLITE_CANTOPEN) {
      return true;
    }
    String message = String.valueOf(e.getMessage());
    return message.contains("no transaction is active") && fault.get() != null
        || message.contains("disk I/O error")
        || message.contains("database or disk is full")
        || message.contains("readonly database");
  }

  /** Records the fault (logged when it begins) and returns the 503 to throw for it. */
  CascadeException unavailable(SQLException e) {
    String cause = cause(e);
    if (fault.getAndSet(cause) == null) {
      log.warn(
          "the database {} cannot be written: {}; writes are refused (503) until it can again",
          file,
          cause);
    }
    return new CascadeException(
        ErrorCode.UNAVAILABLE,
        "Cascade cannot write its data right now ("
            + cause
            + "): nothing was changed; try again once the data dir "
            + file.getParent()
            + " is writable and has free space",
        null,
        e);
  }

  /** A write committed: a fault, if there was one, is over. */
  void cleared() {
    if (fault.get() != null && fault.getAndSet(null) != null) {
      log.info("the database {} can be written again", file);
    }
  }

  private static String cause(SQLException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("full")) {
      return "the disk is full";
    }
    if (message.toLowerCase(java.util.Locale.ROOT).contains("readonly")
        || message.contains("read-only")) {
      return "the data dir is read-only";
    }
    return "the disk refused the write: " + message;
  }
}
