package dev.cascade.s3;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The one key pair the embedded S3 endpoint accepts: requests must be signed (AWS Signature V4, or
 * V2 for old clients) with it. {@link #toString()} never shows the secret.
 *
 * @param accessKey the access key id ({@value #ACCESS_KEY_ENV})
 * @param secretKey the secret access key ({@value #SECRET_KEY_ENV})
 * @param generated true when Cascade made the pair up because none was set, so whoever starts the
 *     endpoint should print it for the uploaders
 */
public record S3Credentials(String accessKey, String secretKey, boolean generated) {

  public static final String ACCESS_KEY_ENV = "CASCADE_S3_ACCESS_KEY";
  public static final String SECRET_KEY_ENV = "CASCADE_S3_SECRET_KEY";

  private static final int MAX_LENGTH = 128;
  private static final String ACCESS_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  private static final String SECRET_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  public S3Credentials {
    requireKey("accessKey", ACCESS_KEY_ENV, accessKey);
    requireKey("secretKey", SECRET_KEY_ENV, secretKey);
  }

  /** A fresh random pair: a 20-character access key and a 40-character secret, like AWS's. */
  public static S3Credentials generate() {
    return new S3Credentials(
        "CASC" + random(ACCESS_ALPHABET, 16), random(SECRET_ALPHABET, 40), true);
  }

  /**
   * The pair {@value #ACCESS_KEY_ENV} and {@value #SECRET_KEY_ENV} set in {@code environment}; a
   * {@linkplain #generate() generated} one when neither is set.
   *
   * @throws CascadeException {@code INVALID} when only one of the two is set, or a value is not
   *     usable as a key
   */
  public static S3Credentials fromEnvironment(Map<String, String> environment) {
    String access = blankToNull(environment.get(ACCESS_KEY_ENV));
    String secret = blankToNull(environment.get(SECRET_KEY_ENV));
    if (access == null && secret == null) {
      return generate();
    }
    if (access == null || secret == null) {
      String set = access == null ? SECRET_KEY_ENV : ACCESS_KEY_ENV;
      String unset = access == null ? ACCESS_KEY_ENV : SECRET_KEY_ENV;
      throw new CascadeException(
          ErrorCode.INVALID,
          set
              + " is set but "
              + unset
              + " is not; set both (the S3 key pair uploaders sign with), or neither to have"
              + " Cascade generate and print a pair",
          unset);
    }
    try {
      return new S3Credentials(access, secret, false);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), null, e);
    }
  }

  /**
   * The pair from {@code environment} when it sets one; else the pair kept in {@code file},
   * generating and keeping one (readable by its owner only) the first time. Uploaders' settings
   * then survive a restart. Only a pair generated now is marked {@code generated}.
   */
  public static S3Credentials fromEnvironmentOrFile(Map<String, String> environment, Path file)
      throws IOException {
    if (blankToNull(environment.get(ACCESS_KEY_ENV)) != null
        || blankToNull(environment.get(SECRET_KEY_ENV)) != null) {
      return fromEnvironment(environment);
    }
    if (Files.exists(file)) {
      Properties kept = new Properties();
      try (var in = Files.newBufferedReader(file)) {
        kept.load(in);
      }
      try {
        return new S3Credentials(
            kept.getProperty("access_key", ""), kept.getProperty("secret_key", ""), false);
      } catch (IllegalArgumentException | NullPointerException e) {
        throw new CascadeException(
            ErrorCode.INVALID,
            "the S3 key pair kept in " + file + " is damaged; delete it to get a new one",
            null,
            e);
      }
    }
    S3Credentials generated = generate();
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), ".s3-keys", ".tmp");
    try {
      Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the data dir's own permissions protect it.
    }
    Files.writeString(
        temporary,
        "# Cascade's generated S3 key pair; CASCADE_S3_ACCESS_KEY/SECRET_KEY override it.\n"
            + "access_key="
            + generated.accessKey()
            + "\nsecret_key="
            + generated.secretKey()
            + "\n");
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    return generated;
  }

  /** The access key and a masked secret: safe to log. */
  @Override
  public String toString() {
    return "S3Credentials[accessKey="
        + accessKey
        + ", secretKey=****, generated="
        + generated
        + "]";
  }

  private static void requireKey(String name, String variable, String value) {
    Objects.requireNonNull(value, name);
    if (value.isEmpty() || value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          name
              + " ("
              + variable
              + ") must be 1 to "
              + MAX_LENGTH
              + " characters; got "
              + value.length());
    }
    if (!value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException(
          name
              + " ("
              + variable
              + ") must be printable ASCII without spaces, as clients sign requests with it;"
              + " choose another value");
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static String random(String alphabet, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
