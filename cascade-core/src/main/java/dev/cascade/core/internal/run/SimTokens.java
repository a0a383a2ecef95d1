package dev.cascade.core.internal.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Per-sim bearer tokens: an HMAC of the sim id under a secret kept in the data dir. Nothing per sim
 * is stored, a restarted app still recognises the tokens of sims that kept running, and a token is
 * valid for its own sim only.
 */
public final class SimTokens {

  static final String SECRET_FILE = "sim-token.secret";

  private final SecretKeySpec key;

  private SimTokens(byte[] secret) {
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  /**
   * Reads the secret from {@code dataDir}, creating it (readable by the owner only) when absent.
   */
  public static SimTokens inDataDir(Path dataDir) {
    Path file = dataDir.resolve(SECRET_FILE);
    try {
      if (!Files.exists(file)) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        try {
          Files.write(
              file,
              Base64.getEncoder().encode(secret),
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.WRITE);
          try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
          } catch (UnsupportedOperationException e) {
            // Not a POSIX file system; the data dir's own permissions protect it.
          }
        } catch (FileAlreadyExistsException e) {
          // Another process made it first; use theirs.
        }
      }
      String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
      return new SimTokens(Base64.getDecoder().decode(text));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the sim token secret " + file, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "the sim token secret " + file + " is damaged; delete it (running sims will be refused)",
          e);
    }
  }

  /** The token sim {@code simId} presents. */
  public String tokenFor(String simId) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] digest = mac.doFinal(simId.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  /** True when {@code token} is sim {@code simId}'s; compared in constant time. */
  public boolean isValid(String simId, String token) {
    if (simId == null || token == null) {
      return false;
    }
    return MessageDigest.isEqual(
        tokenFor(simId).getBytes(StandardCharsets.US_ASCII),
        token.getBytes(StandardCharsets.US_ASCII));
  }
}
