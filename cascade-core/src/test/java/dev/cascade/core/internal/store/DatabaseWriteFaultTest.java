package dev.cascade.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.nio.file.Path;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database whose disk stops taking writes. Tests run as root, for whom a read-only mode bit does
 * not stop writes, so SQLite's own read-only switch ({@code PRAGMA query_only}) on the writer
 * connection plays the read-only data dir: SQLite then fails each write with the same {@code
 * SQLITE_READONLY} a read-only file gives. (A full disk is {@code DiskFaultIT}, on a small tmpfs.)
 */
final class DatabaseWriteFaultTest {

  @TempDir Path dataDir;

  @Test
  void write_onAReadOnlyDatabase_isUnavailableWithTheCause_andRecoversWhenWritableAgain() {
    try (Database database = Database.open(dataDir.resolve("cascade.db"))) {
      execute(database, "CREATE TABLE scratch (x INTEGER)");
      execute(database, "PRAGMA query_only = ON");

      assertThatThrownBy(() -> execute(database, "INSERT INTO scratch VALUES (1)"))
          .isInstanceOfSatisfying(
              CascadeException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
                assertThat(e.getMessage())
                    .startsWith(
                        "Cascade cannot write its data right now (the data dir is read-only)")
                    .contains(dataDir.toString())
                    .doesNotContain("no transaction is active");
              });
      assertThat(database.writeFault()).contains("the data dir is read-only");
      assertThat(database.writeFault()).as("asking again, still read-only").isPresent();

      execute(database, "PRAGMA query_only = OFF");

      assertThat(database.writeFault()).isEmpty();
      execute(database, "INSERT INTO scratch VALUES (2)");
      int rows =
          database.read(
              connection -> {
                try (Statement statement = connection.createStatement();
                    var result = statement.executeQuery("SELECT count(*) FROM scratch")) {
                  return result.next() ? result.getInt(1) : -1;
                }
              });
      assertThat(rows).as("the refused write left nothing behind").isEqualTo(1);
    }
  }

  @Test
  void write_thatFailsForAnotherReason_isStillInternal() {
    try (Database database = Database.open(dataDir.resolve("cascade.db"))) {
      assertThatThrownBy(() -> execute(database, "INSERT INTO no_such_table VALUES (1)"))
          .isInstanceOfSatisfying(
              CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL));
      assertThat(database.writeFault()).isEmpty();
    }
  }

  private static void execute(Database database, String sql) {
    database.write(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
          }
          return null;
        });
  }
}
