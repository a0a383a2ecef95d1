package dev.cascade.core.internal.run;

import dev.cascade.core.internal.store.SimTokenRepository;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-sim bearer tokens: 256 random bits made at each launch, handed to that sim only, and kept as
 * a SHA-256 hash. A restarted app still recognises the tokens of sims that kept running (the hash
 * is in the database), a token is valid for its own sim only, and nothing a sim can read (the data
 * dir, the database) lets it compute another sim's token.
 */
public final class SimTokens {

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Tokens checked once are remembered (tokens are never revoked); cleared past this many. */
  private static final int KNOWN_LIMIT = 100_000;

  private final SimTokenRepository repository;

  /** "simId token-hash" of the tokens found valid: a sim's every report checks its token. */
  private final Set<String> known = ConcurrentHashMap.newKeySet();

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
    if (simId == null || token == null) {
      return false;
    }
    String hash = hash(token);
    String key = simId + ' ' + hash;
    if (known.contains(key)) {
      return true;
    }
    if (!repository.holds(simId, hash)) {
      return false;
    }
    if (known.size() >= KNOWN_LIMIT) {
      known.clear();
    }
    known.add(key);
    return true;
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
