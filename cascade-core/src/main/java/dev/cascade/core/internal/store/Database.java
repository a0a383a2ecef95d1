package dev.cascade.core.internal.store;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cascade's SQLite database ({@code cascade.db}): WAL mode, a busy timeout, migrations applied at
 * open, and one writer. Every write goes through {@link #write}, which serialises writers on one
 * connection and runs each work in a savepoint of a shared transaction, committed for many writes
 * at once ({@link GroupCommit}); a write returns only once its commit is on disk. Reads go through
 * {@link #read} on a connection of their own, so readers never wait for the writer (WAL).
 */
public final class Database implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Database.class);
  private static final int BUSY_TIMEOUT_MS = 10_000;
  // Readers are pooled, not per thread: callers may be any number of virtual threads.
  private static final int READERS = 4;

  /** Work done inside a transaction or a read. */
  @FunctionalInterface
  public interface Work<T> {
    T apply(Connection connection) throws SQLException;
  }

  private final Path file;
  private final Connection writer;
  private GroupCommit commits;
  private final BlockingQueue<Connection> readers;
  private final List<Connection> allReaders = new ArrayList<>();
  private volatile boolean closed;
  private final StorageFaults faults;

  private Database(Path file) throws SQLException {
    this.file = file;
    this.faults = new StorageFaults(file);
    this.writer = connect(file);
    this.readers = new ArrayBlockingQueue<>(READERS);
    for (int i = 0; i < READERS; i++) {
      Connection reader = connect(file);
      allReaders.add(reader);
      readers.add(reader);
    }
  }

  /** Opens (creating when absent) the database at {@code file} and applies pending migrations. */
  public static Database open(Path file, Migrations migrations) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Database database = new Database(file);
      try {
        database.migrate(migrations);
        database.commits = new GroupCommit(database.writer, "cascade-db-commit");
      } catch (SQLException | RuntimeException e) {
        // Do not leak the open connections of a database that cannot be used.
        database.close();
        String reason =
            e.getCause() instanceof SQLException sql ? sql.getMessage() : e.getMessage();
        throw new CascadeException(
            ErrorCode.UNAVAILABLE, "cannot open the database \"" + file + "\": " + reason, null, e);
      }
      return database;
    } catch (IOException | SQLException e) {
      throw new CascadeException(
          ErrorCode.UNAVAILABLE,
          "cannot open the database \"" + file + "\": " + e.getMessage(),
          null,
          e);
    }
  }

  /** Opens the database with Cascade's own migrations. */
  public static Database open(Path file) {
    return open(file, Migrations.cascade());
  }

  public Path file() {
    return file;
  }

  /** Migrations run alone in one transaction of their own, before any other write. */
  private void migrate(Migrations migrations) throws SQLException {
    writer.setAutoCommit(false);
    try {
      migrations.apply(writer);
      writer.commit();
    } catch (SQLException | RuntimeException e) {
      rollbackKeeping(e);
      throw e;
    } finally {
      resetAutoCommit();
    }
  }

  /**
   * Runs {@code work} on the single writer, all or nothing (it rolls back alone when it throws),
   * and returns once it is committed and durable. Many writes share one commit ({@link
   * GroupCommit}), so what {@code work} decides from must be read on {@code connection}: a read
   * connection does not see the writes that will commit with this one.
   */
  public <T> T write(Work<T> work) {
    if (commits.isWriting()) {
      // A nested write would deadlock on the writer; compose the work instead.
      throw new IllegalStateException("write() called inside write(); pass the connection down");
    }
    try {
      ensureOpen();
      T result = commits.write(work);
      faults.cleared();
      return result;
    } catch (SQLException e) {
      if (faults.isStorageFault(e)) {
        throw faults.unavailable(e);
      }
      throw new CascadeException(
          ErrorCode.INTERNAL, "database write failed: " + e.getMessage(), null, e);
    } catch (CascadeException e) {
      if (e.getCause() instanceof SQLException sql && faults.isStorageFault(sql)) {
        throw faults.unavailable(sql); // a repository wrapped it
      }
      throw e;
    }
  }

  /**
   * Why the database cannot be written, when the last write failed for want of a writable disk;
   * empty when it can. While there is a fault, asking tries a harmless write, so the answer comes
   * back to empty by itself once the disk takes writes again.
   */
  public Optional<String> writeFault() {
    if (faults.current().isPresent() && !closed) {
      try {
        write(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                // Rewrites the header with the value it has: a real write that changes nothing.
                statement.execute("PRAGMA user_version = " + Migrations.userVersion(connection));
              }
              return null;
            });
      } catch (CascadeException e) {
        // still faulty; faults holds the cause
      }
    }
    return faults.current();
  }

  /** Rolls back after a failed write without hiding why it failed. */
  private void rollbackKeeping(Exception failure) {
    try {
      writer.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e); // SQLite may have rolled back by itself already
    }
  }

  private void resetAutoCommit() {
    try {
      writer.setAutoCommit(true);
    } catch (SQLException e) {
      log.debug("resetting auto-commit failed", e);
    }
  }

  /** Runs {@code work} on a pooled read connection; it sees every committed write. */
  public <T> T read(Work<T> work) {
    ensureOpen();
    Connection reader;
    try {
      reader = readers.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CascadeException(ErrorCode.UNAVAILABLE, "interrupted waiting to read", null, e);
    }
    try {
      return work.apply(reader);
    } catch (SQLException e) {
      throw new CascadeException(
          ErrorCode.INTERNAL, "database read failed: " + e.getMessage(), null, e);
    } finally {
      readers.add(reader);
    }
  }

  /**
   * {@link #read} in one read transaction: every statement of {@code work} sees the same committed
   * state, so rows read from two tables agree with each other.
   */
  public <T> T readSnapshot(Work<T> work) {
    return read(
        connection -> {
          connection.setAutoCommit(false);
          try {
            return work.apply(connection);
          } finally {
            connection.rollback(); // nothing was written: ends the read transaction
            connection.setAutoCommit(true);
          }
        });
  }

  /**
   * Copies the WAL into the database file and empties it ({@code wal_checkpoint(TRUNCATE)}), on a
   * read connection outside any transaction; waits for the writer's current commit (busy timeout).
   */
  public void checkpoint() {
    read(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
          }
          return null;
        });
  }

  /**
   * {@link #checkpoint}, then rebuilds the database file without its free pages ({@code VACUUM}),
   * so space freed by deleted rows goes back to the file system. Rewrites the whole file: it needs
   * free disk as large as the database and holds the write lock while it runs.
   */
  public void compact() {
    checkpoint();
    read(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute("VACUUM");
          }
          return null;
        });
    checkpoint();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (commits != null) {
      commits.close(); // commits what is pending first
    }
    for (Connection reader : allReaders) {
      closeQuietly(reader);
    }
    closeQuietly(writer);
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the database \"" + file + "\" is closed");
    }
  }

  private static Connection connect(Path file) throws SQLException {
    Connection connection =
        StatementCache.wrap(DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath()));
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MS);
      statement.execute("PRAGMA journal_mode = WAL");
      // NORMAL is durable in WAL mode against application crashes; FULL also against power loss.
      statement.execute("PRAGMA synchronous = FULL");
      statement.execute("PRAGMA foreign_keys = ON");
    }
    return connection;
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      log.debug("closing a database connection failed", e);
    }
  }
}
