package dev.cascade.core;

import java.util.Objects;

/**
 * A user just added, with their token: the one time the token is shown, since only its hash is
 * kept.
 */
public record NewUser(User user, String token) {

  public NewUser {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(token, "token");
  }

  /** The token, never printed by {@code toString} (it would end up in logs). */
  @Override
  public String toString() {
    return "NewUser[user=" + user + ", token=(shown once)]";
  }
}
