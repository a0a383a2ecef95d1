package dev.cascade.core.internal;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * Makes run ids ({@code r_...}) and sim ids ({@code s_...}): a prefix and 26 characters of
 * Crockford base32, ULID-like: 48 bits of milliseconds since the epoch, then 80 random bits. Ids
 * made in the same millisecond (or while the clock stands still or goes back) continue from the
 * previous id plus one, so every id this generator makes sorts after the one before it, as a plain
 * string. They are URL-safe and need no escaping anywhere.
 */
public final class Ids {

  /** Crockford's base32 alphabet: no I, L, O or U; in ASCII order, so strings sort like numbers. */
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();

  private static final Pattern RUN_ID = Pattern.compile("r_[0-9A-HJKMNP-TV-Z]{26}");
  private static final Pattern SIM_ID = Pattern.compile("s_[0-9A-HJKMNP-TV-Z]{26}");
  private static final long MAX_MILLIS = (1L << 48) - 1;
  private static final long MAX_HIGH = (1L << 16) - 1;

  private final Clock clock;
  private final RandomGenerator random;
  private long lastMillis = -1;
  // The 80 random bits: 16 high bits and 64 low bits.
  private long randomHigh;
  private long randomLow;

  /** Ids timed by {@code clock}, with random bits from a {@link SecureRandom}. */
  public Ids(Clock clock) {
    this(clock, new SecureRandom());
  }

  /** Ids timed by {@code clock} with random bits from {@code random} (tests pin it). */
  public Ids(Clock clock, RandomGenerator random) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** A new run id such as {@code r_01JD3N8X5S2Q7W4K9M6T1V0BZC}. */
  public String newRunId() {
    return "r_" + next();
  }

  /** A new sim id such as {@code s_01JD3N8X5S2Q7W4K9M6T1V0BZD}. */
  public String newSimId() {
    return "s_" + next();
  }

  /** True when {@code value} has the shape of a run id; says nothing about whether it exists. */
  public static boolean isRunId(String value) {
    return value != null && RUN_ID.matcher(value).matches();
  }

  /** True when {@code value} has the shape of a sim id; says nothing about whether it exists. */
  public static boolean isSimId(String value) {
    return value != null && SIM_ID.matcher(value).matches();
  }

  private synchronized String next() {
    long now = clock.millis();
    if (now < 0 || now > MAX_MILLIS) {
      throw new IllegalStateException(
          "the clock reads " + now + " ms since the epoch; ids need 0 to " + MAX_MILLIS);
    }
    if (now > lastMillis) {
      lastMillis = now;
      randomHigh = random.nextLong() & MAX_HIGH;
      randomLow = random.nextLong();
    } else if (!incrementRandom()) {
      // 2^80 ids in one millisecond cannot happen with a real random start; borrow the next one.
      lastMillis++;
      randomHigh = random.nextLong() & MAX_HIGH;
      randomLow = random.nextLong();
    }
    return encode(lastMillis, randomHigh, randomLow);
  }

  /** Adds one to the 80 random bits; false when they were all ones. */
  private boolean incrementRandom() {
    if (randomLow != -1L) {
      randomLow++;
      return true;
    }
    if (randomHigh == MAX_HIGH) {
      return false;
    }
    randomLow = 0;
    randomHigh++;
    return true;
  }

  private static String encode(long millis, long high, long low) {
    char[] out = new char[26];
    // 10 characters of time: 50 bits, the top two always zero.
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (millis & 31)];
      millis >>>= 5;
    }
    // 16 characters of randomness: 80 bits, 16 high then 64 low, five bits per character.
    for (int i = 25; i >= 10; i--) {
      out[i] = ALPHABET[(int) (low & 31)];
      low = (low >>> 5) | ((high & 31) << 59);
      high >>>= 5;
    }
    return new String(out);
  }
}
