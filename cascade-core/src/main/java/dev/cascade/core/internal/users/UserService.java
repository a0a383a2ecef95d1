package dev.cascade.core.internal.users;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.NewUser;
import dev.cascade.core.Role;
import dev.cascade.core.RunOptions;
import dev.cascade.core.User;
import dev.cascade.core.internal.store.UserRepository;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users of a shared server: adding one makes a random 256-bit token, shown once and kept as its
 * SHA-256 hash (a hash of a random token needs no salt or stretching: there is nothing to guess);
 * revoking keeps the user with who revoked them and when. Who adds or revokes is logged too.
 */
public final class UserService {

  /**
   * The name of the server's own token and of a server without one: the local admin, as old runs'
   * default owner {@value RunOptions#DEFAULT_OWNER}. No user may take it.
   */
  public static final String LOCAL = RunOptions.DEFAULT_OWNER;

  /** Every token starts so, to be recognised in a file or a leak report. */
  static final String TOKEN_PREFIX = "cascade_";

  private static final Logger log = LoggerFactory.getLogger(UserService.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final UserRepository repository;
  private final Clock clock;

  public UserService(UserRepository repository, Clock clock) {
    this.repository = Objects.requireNonNull(repository, "repository");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Adds user {@code name} with {@code role}, their token expiring at {@code expiresAt} (null:
   * never), added by {@code by}.
   *
   * @throws CascadeException {@code invalid} for a bad name, the reserved name or an expiry in the
   *     past; {@code conflict} when the name is taken (revoked users keep theirs)
   */
  public NewUser add(String name, Role role, Instant expiresAt, String by) {
    try {
      User.requireName(name);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "name");
    }
    Objects.requireNonNull(role, "role");
    if (name.equalsIgnoreCase(LOCAL)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "the user name \""
              + name
              + "\" is reserved for the server's own token and a server without one; choose"
              + " another",
          "name");
    }
    Instant now = clock.instant();
    if (expiresAt != null && !expiresAt.isAfter(now)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "expires_at must be in the future; got " + expiresAt + " (it is " + now + " now)",
          "expires_at");
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String token = TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    User user = new User(name, role, now, by, expiresAt, null, null);
    if (!repository.insert(user, hash(token))) {
      throw new CascadeException(
          ErrorCode.CONFLICT,
          "there is a user \""
              + name
              + "\" already (revoked users keep their name, so their runs stay theirs); choose"
              + " another name",
          "name");
    }
    log.info(
        "user {} added as {} by {}{}",
        name,
        role.wireName(),
        by,
        expiresAt == null ? "" : ", token expires " + expiresAt);
    return new NewUser(user, token);
  }

  /** Every user, revoked and expired ones included, by name. */
  public List<User> list() {
    return repository.list();
  }

  /**
   * Revokes {@code name}'s token, by {@code by}: their next request is 401. Revoking twice is
   * harmless and keeps the first record.
   *
   * @throws CascadeException {@code not_found} when there is no such user
   */
  public User revoke(String name, String by) {
    Instant now = clock.instant();
    if (repository.revoke(name, by, now)) {
      log.info("user {} revoked by {}", name, by);
    }
    return repository
        .find(name)
        .orElseThrow(
            () ->
                new CascadeException(
                    ErrorCode.NOT_FOUND,
                    "there is no user \"" + name + "\"; see cascade users list",
                    "name"));
  }

  /** The user {@code token} belongs to, revoked or expired ones included; empty for none. */
  public Optional<User> byToken(String token) {
    return token == null ? Optional.empty() : repository.findByTokenHash(hash(token));
  }

  /** Now, by the server's clock: for a token's expiry. */
  public Instant now() {
    return clock.instant();
  }

  public static String hash(String token) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha256.digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
