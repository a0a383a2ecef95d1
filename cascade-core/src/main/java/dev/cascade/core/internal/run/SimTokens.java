package dev.cascade.core.internal.run;

import dev.cascade.core.internal.store.SimTokenRepository;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Per-sim bearer tokens: 256 random bits made at each launch, handed to that sim only, and kept as
 * a SHA-256 hash. A restarted app still recognises the tokens of sims that kept running (the hash
 * is in the database), a token is valid for its own sim only, and nothing a sim can read (the data
 * dir, the database) lets it compute another sim's token.
 */
public final class SimTokens {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final SimTokenRepository repository;

  public SimTokens(SimTokenRepository repository) {
    this.repository = repository;
  }

  /**
   * A new token for sim {@code simId}, its hash stored before it is returned so the sim can use it
   * at once. A token issued before for the same sim stays valid for it: after a crash mid-launch
   * the relaunch may find the first launch's process still running (a Sail exec is deduplicated by
   * the sim's id), and that process knows only the first token.
   */
  public String issue(String simId) {
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    repository.put(simId, hash(token));
    return token;
  }

  /**
   * True when {@code token} was issued to sim {@code simId}. Only its SHA-256 hash is looked up, so
   * comparing it in SQL tells an attacker nothing about a token's bytes.
   */
  public boolean isValid(String simId, String token) {
    return simId != null && token != null && repository.holds(simId, hash(token));
  }

  static String hash(String token) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha256.digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
