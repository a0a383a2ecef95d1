package dev.cascade.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

/**
 * The {@code sim_tokens} table: the hash of the token each sim was last launched with. The token
 * itself is never stored; only the sim it was given to knows it.
 */
public final class SimTokenRepository {

  private final Database database;

  public SimTokenRepository(Database database) {
    this.database = database;
  }

  /** Records {@code tokenHash} as sim {@code simId}'s, replacing the hash of an earlier launch. */
  public void put(String simId, String tokenHash) {
    database.write(
        connection -> {
          try (PreparedStatement upsert =
              connection.prepareStatement(
                  "INSERT INTO sim_tokens (sim_id, token_hash) VALUES (?, ?)"
                      + " ON CONFLICT (sim_id) DO UPDATE SET token_hash = excluded.token_hash")) {
            upsert.setString(1, simId);
            upsert.setString(2, tokenHash);
            upsert.executeUpdate();
          }
          return null;
        });
  }

  /** The hash of sim {@code simId}'s token, when it was ever given one. */
  public Optional<String> hashOf(String simId) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement("SELECT token_hash FROM sim_tokens WHERE sim_id = ?")) {
            select.setString(1, simId);
            try (ResultSet row = select.executeQuery()) {
              return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
          }
        });
  }
}
