package dev.cascade.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * The {@code sim_tokens} table: the hashes of the tokens each sim was launched with. A token itself
 * is never stored; only the sim it was given to knows it.
 */
public final class SimTokenRepository {

  private final Database database;

  public SimTokenRepository(Database database) {
    this.database = database;
  }

  /** Records {@code tokenHash} as one of sim {@code simId}'s, beside those of earlier launches. */
  public void put(String simId, String tokenHash) {
    database.write(
        connection -> {
          try (PreparedStatement upsert =
              connection.prepareStatement(
                  "INSERT OR IGNORE INTO sim_tokens (sim_id, token_hash) VALUES (?, ?)")) {
            upsert.setString(1, simId);
            upsert.setString(2, tokenHash);
            upsert.executeUpdate();
          }
          return null;
        });
  }

  /** True when {@code tokenHash} is the hash of a token sim {@code simId} was given. */
  public boolean holds(String simId, String tokenHash) {
    return database.read(
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT 1 FROM sim_tokens WHERE sim_id = ? AND token_hash = ?")) {
            select.setString(1, simId);
            select.setString(2, tokenHash);
            try (ResultSet row = select.executeQuery()) {
              return row.next();
            }
          }
        });
  }
}
