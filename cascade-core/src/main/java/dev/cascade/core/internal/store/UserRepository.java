package dev.cascade.core.internal.store;

import dev.cascade.core.Role;
import dev.cascade.core.User;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code users} table: each user of a shared server with their role and the SHA-256 hash of
 * their token (never the token). A revoked user keeps their row, with who revoked them and when.
 */
public final class UserRepository {

  private static final String COLUMNS =
      "name, role, created_at, created_by, expires_at, revoked_at, revoked_by";

  private final Database database;

  public UserRepository(Database database) {
    this.database = Objects.requireNonNull(database, "database");
  }

  /**
   * Adds {@code user} with its token's hash; false (nothing written) when a user of that name
   * exists, revoked or not.
   */
  public boolean insert(User user, String tokenHash) {
    return database.write(
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT OR IGNORE INTO users (name, role, token_hash, created_at, created_by,"
                      + " expires_at, revoked_at, revoked_by) VALUES (?, ?, ?, ?, ?, ?, NULL,"
                      + " NULL)")) {
            insert.setString(1, user.name());
            insert.setString(2, user.role().wireName());
            insert.setString(3, tokenHash);
            insert.setString(4, SqlTimes.text(user.createdAt()));
            insert.setString(5, user.createdBy());
            insert.setString(6, user.expiresAt() == null ? null : SqlTimes.text(user.expiresAt()));
            return insert.executeUpdate() == 1;
          }
        });
  }

  /** The user whose token hashes to {@code tokenHash}, revoked or expired ones included. */
  public Optional<User> findByTokenHash(String tokenHash) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT " + COLUMNS + " FROM users WHERE token_hash = ?")) {
            select.setString(1, tokenHash);
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? Optional.of(user(row)) : Optional.<User>empty();
            }
          }
        });
  }

  public Optional<User> find(String name) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement("SELECT " + COLUMNS + " FROM users WHERE name = ?")) {
            select.setString(1, name);
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? Optional.of(user(row)) : Optional.<User>empty();
            }
          }
        });
  }

  /** Every user, by name. */
  public List<User> list() {
    return database.read(
        connection -> {
          try (PreparedStatement select =
                  connection.prepareStatement("SELECT " + COLUMNS + " FROM users ORDER BY name");
              ResultSet rows = select.executeQuery()) {
            List<User> users = new ArrayList<>();
            while (rows.next()) {
              users.add(user(rows));
            }
            return users;
          }
        });
  }

  /** Revokes {@code name}'s token; false when there is no such user or it is revoked already. */
  public boolean revoke(String name, String by, Instant at) {
    return database.write(
        connection -> {
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE users SET revoked_at = ?, revoked_by = ? WHERE name = ? AND revoked_at"
                      + " IS NULL")) {
            update.setString(1, SqlTimes.text(at));
            update.setString(2, by);
            update.setString(3, name);
            return update.executeUpdate() == 1;
          }
        });
  }

  private static User user(ResultSet row) throws SQLException {
    return new User(
        row.getString(1),
        Role.fromWireName(row.getString(2)),
        SqlTimes.instant(row.getString(3)),
        row.getString(4),
        time(row.getString(5)),
        time(row.getString(6)),
        row.getString(7));
  }

  private static Instant time(String text) {
    return text == null ? null : SqlTimes.instant(text);
  }
}
