package dev.cascade.core;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A user of a shared server: a name (which is also the owner of the runs they create), a role, and
 * the life of their token. The token itself is never kept, only its hash; so a user is shown
 * without it.
 *
 * @param name 1 to 64 of {@code A-Z a-z 0-9 . _ @ -}, as a run's owner
 * @param role what they may do
 * @param createdAt when the user was added
 * @param createdBy who added them
 * @param expiresAt when their token stops working; null: never
 * @param revokedAt when their token was revoked; null: it was not
 * @param revokedBy who revoked it; null when it was not
 */
public record User(
    String name,
    Role role,
    Instant createdAt,
    String createdBy,
    Instant expiresAt,
    Instant revokedAt,
    String revokedBy) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  public User {
    requireName(name);
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(createdBy, "createdBy");
  }

  /**
   * {@code name} when it can name a user (and so a run's owner).
   *
   * @throws IllegalArgumentException naming the value and what a name may hold
   */
  public static String requireName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "a user name must be 1 to 64 of A-Z a-z 0-9 . _ @ -; got \"" + name + "\"");
    }
    return name;
  }

  /** When the token stops working, if it ever does. */
  public Optional<Instant> expires() {
    return Optional.ofNullable(expiresAt);
  }

  /** When the token was revoked, if it was. */
  public Optional<Instant> revoked() {
    return Optional.ofNullable(revokedAt);
  }

  /** True while the token works at {@code now}: not revoked, not expired. */
  public boolean activeAt(Instant now) {
    return revokedAt == null && (expiresAt == null || now.isBefore(expiresAt));
  }

  /** The same user, revoked by {@code by} at {@code at}. */
  public User withRevoked(String by, Instant at) {
    return new User(name, role, createdAt, createdBy, expiresAt, at, by);
  }
}
