package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single writer's group commit ({@link GroupCommit} behind {@link Database#write}): many writes
 * at once share commits, yet each returns only once it is committed (another connection sees it at
 * once), and a write that fails rolls back alone.
 */
final class GroupCommitTest {

  private static final int THREADS = 32;
  private static final int WRITES = 20;

  @TempDir Path dir;

  @Test
  void writesFromManyThreads_areCommittedBeforeTheyReturn_andAFailedOneRollsBackAlone()
      throws Exception {
    Path file = dir.resolve("cascade.db");
    Queue<String> problems = new ConcurrentLinkedQueue<>();
    try (Database database = Database.open(file)) {
      database.write(
          connection -> {
            try (Statement statement = connection.createStatement()) {
              statement.execute("CREATE TABLE t (k TEXT PRIMARY KEY)");
            }
            return null;
          });
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        threads.add(
            Thread.ofVirtual()
                .start(
                    () -> {
                      try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                        start.await();
                        for (int i = 0; i < WRITES; i++) {
                          String key = thread + ":" + i;
                          boolean fails = i % 7 == 3;
                          try {
                            database.write(
                                connection -> {
                                  insert(connection, key);
                                  if (fails) {
                                    throw new IllegalStateException("refused " + key);
                                  }
                                  return null;
                                });
                            if (fails) {
                              problems.add(key + ": a failing write returned");
                            }
                          } catch (IllegalStateException e) {
                            if (!fails) {
                              problems.add(key + ": " + e);
                            }
                          }
                          // Another connection sees only what is committed.
                          if (holds(other, key) == fails) {
                            problems.add(key + (fails ? ": rolled back, yet held" : ": not held"));
                          }
                        }
                      } catch (Exception e) {
                        problems.add(thread + ": " + e);
                      }
                    }));
      }
      start.countDown();
      for (Thread thread : threads) {
        thread.join();
      }
      assertThat(problems).isEmpty();
    }
  }

  @Test
  void aWriteInsideAWrite_isRefused() {
    try (Database database = Database.open(dir.resolve("cascade.db"))) {
      assertThatThrownBy(() -> database.write(connection -> database.write(inner -> null)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("inside write()");
      String answer = database.write(connection -> "still writable");
      assertThat(answer).isEqualTo("still writable");
    }
  }

  @Test
  void aClosedDatabase_refusesWrites() {
    Database database = Database.open(dir.resolve("cascade.db"));
    database.close();
    assertThatThrownBy(() -> database.write(connection -> null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  private static void insert(Connection connection, String key) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (k) VALUES (?)")) {
      insert.setString(1, key);
      insert.executeUpdate();
    }
  }

  private static boolean holds(Connection connection, String key) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM t WHERE k = ?")) {
      select.setString(1, key);
      try (ResultSet row = select.executeQuery()) {
        return row.next();
      }
    }
  }
}
