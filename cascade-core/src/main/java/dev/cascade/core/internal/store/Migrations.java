package dev.cascade.core.internal.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Versioned schema migrations applied at start, in order, each in the caller's transaction. The
 * version reached is kept in SQLite's {@code user_version}, so a database is never migrated twice
 * and a newer database than this code knows is refused.
 */
public final class Migrations {

  private static final Logger log = LoggerFactory.getLogger(Migrations.class);

  /** One migration: its version (1, 2, ...) and the SQL statements it runs. */
  public record Migration(int version, String sql) {
    public Migration {
      Objects.requireNonNull(sql, "sql");
      if (version < 1) {
        throw new IllegalArgumentException("migration versions start at 1; got " + version);
      }
    }
  }

  private final List<Migration> migrations;

  public Migrations(List<Migration> migrations) {
    this.migrations = List.copyOf(migrations);
    for (int i = 0; i < this.migrations.size(); i++) {
      if (this.migrations.get(i).version() != i + 1) {
        throw new IllegalArgumentException(
            "migrations must be numbered 1, 2, 3 ... without gaps; found version "
                + this.migrations.get(i).version()
                + " at position "
                + (i + 1));
      }
    }
  }

  /** Cascade's migrations, read from {@code db/migration/V<n>__*.sql} on the class path. */
  public static Migrations cascade() {
    return new Migrations(
        List.of(
            new Migration(1, resource("db/migration/V1__initial.sql")),
            new Migration(2, resource("db/migration/V2__hardware.sql")),
            new Migration(3, resource("db/migration/V3__sim_tokens.sql")),
            new Migration(4, resource("db/migration/V4__queue.sql")),
            new Migration(5, resource("db/migration/V5__provenance.sql")),
            new Migration(6, resource("db/migration/V6__accelsim_versions.sql")),
            new Migration(7, resource("db/migration/V7__users.sql")),
            new Migration(8, resource("db/migration/V8__compressed_logs.sql")),
            new Migration(9, resource("db/migration/V9__sim_memory.sql")),
            new Migration(10, resource("db/migration/V10__kernel_wall_time.sql"))));
  }

  /** The newest version these migrations reach. */
  public int latestVersion() {
    return migrations.size();
  }

  /** Applies every migration newer than the database's version. */
  public void apply(Connection connection) throws SQLException {
    int current = userVersion(connection);
    if (current > latestVersion()) {
      throw new SQLException(
          "the database is at schema version "
              + current
              + " but this Cascade knows only up to "
              + latestVersion()
              + "; use a newer Cascade or another data dir");
    }
    for (Migration migration : migrations.subList(current, migrations.size())) {
      try (Statement statement = connection.createStatement()) {
        for (String sql : statements(migration.sql())) {
          statement.execute(sql);
        }
        statement.execute("PRAGMA user_version = " + migration.version());
      }
      log.info("database migrated to schema version {}", migration.version());
    }
  }

  static int userVersion(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        var result = statement.executeQuery("PRAGMA user_version")) {
      return result.next() ? result.getInt(1) : 0;
    }
  }

  /** Splits a script on semicolons that end a line; comments ({@code --}) are dropped. */
  static List<String> statements(String script) {
    StringBuilder withoutComments = new StringBuilder();
    for (String line : script.split("\n", -1)) {
      int comment = line.indexOf("--");
      withoutComments.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
    }
    return java.util.Arrays.stream(withoutComments.toString().split(";\\s*\n"))
        .map(String::strip)
        .filter(sql -> !sql.isEmpty())
        .toList();
  }

  private static String resource(String name) {
    try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("migration " + name + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
