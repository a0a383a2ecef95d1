package dev.cascade.core.internal.store;

import static dev.cascade.core.internal.store.StoreFixtures.T0;
import static dev.cascade.core.internal.store.StoreFixtures.newRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.store.Migrations.Migration;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class MigrationsTest {

  @TempDir Path dataDir;

  private static final Migration COUNTER =
      new Migration(1, "CREATE TABLE counter (n INTEGER);\nINSERT INTO counter VALUES (1);\n");
  private static final Migration SECOND =
      new Migration(2, "CREATE TABLE second (n INTEGER);\nINSERT INTO counter VALUES (2);\n");

  @Test
  void open_freshDatabase_isAtTheLatestVersionWithEveryTable() {
    try (Database database = Database.open(dataDir.resolve("cascade.db"))) {
      assertThat(query(database, "PRAGMA user_version"))
          .containsExactly(Integer.toString(Migrations.cascade().latestVersion()));
      assertThat(query(database, "SELECT name FROM sqlite_master WHERE type = 'table'"))
          .contains("traces", "runs", "sims", "chunks");
    }
  }

  @Test
  void open_createsMissingParentFolders() {
    Path file = dataDir.resolve("a/b/cascade.db");

    try (Database database = Database.open(file)) {
      assertThat(file).exists();
      assertThat(database.file()).isEqualTo(file);
    }
  }

  @Test
  void open_turnsOnWalModeAndABusyTimeout() {
    try (Database database = Database.open(dataDir.resolve("cascade.db"))) {
      assertThat(query(database, "PRAGMA journal_mode")).containsExactly("wal");
      assertThat(query(database, "PRAGMA busy_timeout")).containsExactly("10000");
      assertThat(query(database, "PRAGMA foreign_keys")).containsExactly("1");
      String writerMode =
          database.write(
              connection -> {
                try (Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("PRAGMA journal_mode")) {
                  row.next();
                  return row.getString(1);
                }
              });
      assertThat(writerMode).isEqualTo("wal");
    }
  }

  @Test
  void open_again_doesNotMigrateAgain() {
    Path file = dataDir.resolve("cascade.db");
    Migrations migrations = new Migrations(List.of(COUNTER));
    try (Database database = Database.open(file, migrations)) {
      assertThat(query(database, "SELECT n FROM counter")).containsExactly("1");
    }

    try (Database database = Database.open(file, migrations)) {
      assertThat(query(database, "SELECT n FROM counter")).containsExactly("1");
      assertThat(query(database, "PRAGMA user_version")).containsExactly("1");
    }
  }

  @Test
  void open_again_keepsWhatWasStored() {
    Path file = dataDir.resolve("cascade.db");
    Run run = newRun(new Ids(Clock.systemUTC()), T0, "demo", new RunEntry("SM90_H100", 2));
    try (Database database = Database.open(file)) {
      new RunRepository(database).insert(run);
    }

    try (Database database = Database.open(file)) {
      assertThat(new RunRepository(database).find(run.id())).contains(run);
    }
  }

  @Test
  void open_appliesOnlyTheMigrationsNewerThanTheDatabase() {
    Path file = dataDir.resolve("cascade.db");
    try (Database database = Database.open(file, new Migrations(List.of(COUNTER)))) {
      assertThat(query(database, "PRAGMA user_version")).containsExactly("1");
    }

    try (Database database = Database.open(file, new Migrations(List.of(COUNTER, SECOND)))) {
      assertThat(query(database, "PRAGMA user_version")).containsExactly("2");
      assertThat(query(database, "SELECT n FROM counter ORDER BY n")).containsExactly("1", "2");
    }
  }

  @Test
  void open_aFailingMigration_leavesTheDatabaseAsItWas() throws SQLException {
    Path file = dataDir.resolve("cascade.db");
    Database.open(file, new Migrations(List.of(COUNTER))).close();
    Migration broken =
        new Migration(2, "CREATE TABLE second (n INTEGER);\nINSERT INTO nowhere VALUES (1);\n");

    assertThatThrownBy(() -> Database.open(file, new Migrations(List.of(COUNTER, broken))))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("nowhere");

    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      ResultSet version = statement.executeQuery("PRAGMA user_version");
      version.next();
      assertThat(version.getInt(1)).isEqualTo(1);
      ResultSet second =
          statement.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 'second'");
      second.next();
      assertThat(second.getInt(1)).isZero();
    }
  }

  @Test
  void open_aDatabaseFromANewerCascade_isRefusedWithAClearMessage() throws SQLException {
    Path file = dataDir.resolve("cascade.db");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA user_version = 99");
    }

    assertThatThrownBy(() -> Database.open(file))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("\"" + file + "\"")
        .hasMessageContaining("schema version 99")
        .hasMessageContaining("only up to " + Migrations.cascade().latestVersion())
        .hasMessageContaining("newer Cascade")
        .extracting(e -> ((CascadeException) e).code())
        .isEqualTo(ErrorCode.UNAVAILABLE);
  }

  @Test
  void migrations_mustBeNumberedWithoutGaps() {
    assertThatThrownBy(() -> new Migrations(List.of(COUNTER, new Migration(3, "SELECT 1;"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found version 3 at position 2");
  }

  @Test
  void statements_splitsOnLineEndingSemicolonsAndDropsComments() {
    assertThat(
            Migrations.statements(
                "-- a comment\nCREATE TABLE a (x TEXT); -- trailing\nCREATE INDEX b\n  ON a (x);\n"))
        .containsExactly("CREATE TABLE a (x TEXT)", "CREATE INDEX b\n  ON a (x)");
  }

  private static List<String> query(Database database, String sql) {
    return database.read(
        connection -> {
          List<String> values = new ArrayList<>();
          try (Statement statement = connection.createStatement();
              ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
              values.add(rows.getString(1));
            }
          }
          return values;
        });
  }
}
