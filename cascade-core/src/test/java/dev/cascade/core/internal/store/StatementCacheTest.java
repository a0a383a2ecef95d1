package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.jdbc3.JDBC3PreparedStatement;

/**
 * {@link StatementCache}: a connection compiles each SQL text once; a nested use of the same text
 * gets a statement of its own; closing a kept statement mid-read ends its read, so the next use
 * sees what was committed meanwhile.
 */
final class StatementCacheTest {

  private static final String SELECT = "SELECT k FROM t ORDER BY k";

  @TempDir Path dir;

  @Test
  void theSameSql_isPreparedOnce_andANestedUseGetsItsOwnStatement() throws Exception {
    try (Connection connection = StatementCache.wrap(open())) {
      JDBC3PreparedStatement first;
      try (PreparedStatement select = connection.prepareStatement(SELECT)) {
        first = select.unwrap(JDBC3PreparedStatement.class);
        try (PreparedStatement nested = connection.prepareStatement(SELECT)) {
          assertThat(nested.unwrap(JDBC3PreparedStatement.class)).isNotSameAs(first);
        }
      }
      try (PreparedStatement again = connection.prepareStatement(SELECT)) {
        assertThat(again.unwrap(JDBC3PreparedStatement.class)).isSameAs(first);
        assertThat(again.isClosed()).isFalse();
      }
      assertThat(first.isClosed()).isFalse(); // kept for the next use
    }
  }

  @Test
  void aKeptStatementClosedMidRead_seesLaterCommits() throws Exception {
    try (Connection reader = StatementCache.wrap(open());
        Connection writer = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"))) {
      try (PreparedStatement select = reader.prepareStatement(SELECT)) {
        ResultSet rows = select.executeQuery(); // left open on purpose: close must end the read
        assertThat(rows.next()).isTrue();
      }
      try (Statement insert = writer.createStatement()) {
        insert.execute("INSERT INTO t (k) VALUES ('c')");
      }
      // Another statement on the same connection: an unfinished read would pin the old snapshot.
      try (PreparedStatement count = reader.prepareStatement("SELECT count(*) FROM t");
          ResultSet row = count.executeQuery()) {
        row.next();
        assertThat(row.getInt(1)).isEqualTo(3);
      }
    }
  }

  private Connection open() throws Exception {
    Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"));
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA journal_mode = WAL");
      statement.execute("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY)");
      statement.execute("INSERT OR IGNORE INTO t (k) VALUES ('a'), ('b')");
    }
    return connection;
  }
}
