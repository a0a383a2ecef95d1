package dev.cascade.core.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The single writer's group commit. Each write runs on its caller's thread, alone on the writer
 * connection, in a savepoint of the transaction open now; then it waits until the committer thread
 * has committed that transaction. Writes that arrive while a commit syncs to disk run meanwhile
 * queue for the connection and share the next commit, so one disk sync serves many writes. A write
 * returns only once the commit that holds it is durable: an answer never precedes its data.
 *
 * <p>A write that fails is rolled back to its savepoint and fails alone. When SQLite cannot roll
 * back to the savepoint (it rolled the whole transaction back itself, as it does for some disk
 * errors), every write of that transaction fails: none of them is answered as stored.
 */
final class GroupCommit implements AutoCloseable {

  /** Writes per transaction at most: bounds the transaction and the wait of its first write. */
  private static final int MAX_BATCH = 1024;

  /** The writes of one transaction, and how it ended. */
  private static final class Batch {
    int writes;
    boolean begun;
    SQLException poisoned;
    boolean done;
    SQLException failure;
  }

  private final Connection writer;
  private final Statement control;
  // Prepared once: a write's savepoint is two statements, run as often as writes come.
  private final PreparedStatement savepoint;
  private final PreparedStatement release;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition pending = lock.newCondition();
  private final Condition committed = lock.newCondition();
  private final Condition room = lock.newCondition();
  private final Thread committer;
  private Batch current = new Batch();
  private boolean closing;

  GroupCommit(Connection writer, String name) throws SQLException {
    this.writer = writer;
    this.control = writer.createStatement();
    this.savepoint = writer.prepareStatement("SAVEPOINT write");
    this.release = writer.prepareStatement("RELEASE write");
    this.committer = Thread.ofPlatform().daemon().name(name).unstarted(this::commitLoop);
    committer.start();
  }

  /** True while the calling thread runs a write: a nested write would deadlock or commit early. */
  boolean isWriting() {
    return lock.isHeldByCurrentThread();
  }

  /**
   * Runs {@code work} in a savepoint of the open transaction and returns once that transaction is
   * committed.
   *
   * @throws SQLException what the work or the commit threw
   */
  <T> T write(Database.Work<T> work) throws SQLException {
    lock.lock();
    try {
      while (current.writes >= MAX_BATCH && !closing) {
        room.awaitUninterruptibly();
      }
      if (closing) {
        throw new IllegalStateException("the database is closing: the write was not made");
      }
      Batch batch = current;
      if (batch.poisoned != null) {
        throw batch.poisoned; // the committer has not rolled it back yet
      }
      if (!batch.begun) {
        control.execute("BEGIN");
        batch.begun = true;
      }
      savepoint.execute();
      T result;
      try {
        result = work.apply(writer);
        release.execute();
      } catch (SQLException | RuntimeException e) {
        undo(batch, e);
        throw e;
      }
      batch.writes++;
      pending.signal();
      while (!batch.done) {
        committed.awaitUninterruptibly();
      }
      if (batch.failure != null) {
        throw batch.failure;
      }
      return result;
    } finally {
      lock.unlock();
    }
  }

  /** Rolls the failed work back alone; when SQLite cannot, its whole transaction is lost. */
  private void undo(Batch batch, Exception failure) {
    try {
      control.execute("ROLLBACK TO write");
      control.execute("RELEASE write");
    } catch (SQLException e) {
      failure.addSuppressed(e);
      batch.poisoned =
          new SQLException(
              "a write in the same transaction failed and SQLite rolled the transaction back: "
                  + failure.getMessage(),
              failure instanceof SQLException sql ? sql.getSQLState() : null,
              failure instanceof SQLException sql ? sql.getErrorCode() : 0,
              failure);
      pending.signal();
    }
  }

  private void commitLoop() {
    lock.lock();
    try {
      while (true) {
        while (current.writes == 0 && current.poisoned == null && !closing) {
          pending.awaitUninterruptibly();
        }
        Batch batch = current;
        if (batch.writes == 0 && batch.poisoned == null) {
          if (batch.begun) {
            endQuietly("ROLLBACK"); // only failed writes ran in it
          }
          return; // closing, and nothing waits
        }
        current = new Batch();
        finish(batch);
        batch.done = true;
        committed.signalAll();
        room.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Commits the batch, or rolls it back and records why every write of it failed. */
  private void finish(Batch batch) {
    try {
      if (batch.poisoned != null) {
        batch.failure = batch.poisoned;
        endQuietly("ROLLBACK");
      } else {
        control.execute("COMMIT");
      }
    } catch (SQLException e) {
      batch.failure = e;
      endQuietly("ROLLBACK");
    } catch (RuntimeException | Error e) {
      batch.failure = new SQLException("the commit failed: " + e, e);
      endQuietly("ROLLBACK");
    }
  }

  /**
   * Ends a transaction that may already be over (SQLite rolls back by itself after some errors).
   */
  private void endQuietly(String sql) {
    try {
      control.execute(sql);
    } catch (SQLException e) {
      // "no transaction is active": SQLite ended it already
    }
  }

  /** Commits what is pending, then stops the committer; later writes are refused. */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
      pending.signalAll();
      room.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      committer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      control.close();
      savepoint.close();
      release.close();
    } catch (SQLException e) {
      // the connection is closed next anyway
    }
  }
}
