package dev.cascade.core;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How the local launcher fits sims to the machine's memory, and how sims the out-of-memory killer
 * ended are tried again.
 *
 * <p>A waiting sim starts only when its predicted peak fits the memory free now ({@code
 * MemAvailable}) less {@code reserveBytes}, and, when {@code simLimitBytes} is set, within what the
 * sims running at once may hold together. A sim classed {@code out_of_memory} is tried again, as a
 * new attempt, until it has had {@code oomAttempts} attempts.
 *
 * @param reserveBytes memory never handed to sims, for the app, the OS and everything else ({@code
 *     CASCADE_MEMORY_RESERVE}, 512 MiB)
 * @param simLimitBytes the most memory the local sims running at once may hold together ({@code
 *     CASCADE_SIM_MEMORY_LIMIT}); null: whatever the machine has free
 * @param oomAttempts attempts a sim gets in all when the out-of-memory killer ends it ({@code
 *     CASCADE_OOM_ATTEMPTS}, 3); 1 never tries again
 */
public record MemorySettings(long reserveBytes, Long simLimitBytes, int oomAttempts) {

  /** The most attempts {@link #oomAttempts} may ask for. */
  public static final int MAX_OOM_ATTEMPTS = 20;

  private static final long MIB = 1024L * 1024;

  public MemorySettings {
    if (reserveBytes < 0) {
      throw new IllegalArgumentException(
          "the memory reserve cannot be negative; got " + reserveBytes + " bytes");
    }
    if (simLimitBytes != null && simLimitBytes <= 0) {
      throw new IllegalArgumentException(
          "the sims' memory limit must be positive; got " + simLimitBytes + " bytes");
    }
    if (oomAttempts < 1 || oomAttempts > MAX_OOM_ATTEMPTS) {
      throw new IllegalArgumentException(
          "out-of-memory attempts must be 1 to " + MAX_OOM_ATTEMPTS + "; got " + oomAttempts);
    }
  }

  /** A 512 MiB reserve, no limit of the sims' own, three attempts. */
  public static MemorySettings defaults() {
    return new MemorySettings(512 * MIB, null, 3);
  }

  public MemorySettings withReserveBytes(long reserveBytes) {
    return new MemorySettings(reserveBytes, simLimitBytes, oomAttempts);
  }

  public MemorySettings withSimLimitBytes(long simLimitBytes) {
    return new MemorySettings(reserveBytes, simLimitBytes, oomAttempts);
  }

  public MemorySettings withOomAttempts(int oomAttempts) {
    return new MemorySettings(reserveBytes, simLimitBytes, oomAttempts);
  }

  /** The sims' own limit, when one is set. */
  public OptionalLong simLimit() {
    return simLimitBytes == null ? OptionalLong.empty() : OptionalLong.of(simLimitBytes);
  }

  /**
   * Reads a size: a number of bytes ({@code 1073741824}), or a number with a binary unit, {@code
   * K}, {@code M}, {@code G} or {@code T} (with or without {@code iB} or {@code B}: {@code 512M},
   * {@code 1.5GiB}); case does not matter.
   *
   * @throws IllegalArgumentException naming the value when it is not such a size
   */
  public static long parseSize(String value) {
    String text = value == null ? "" : value.strip().toUpperCase(Locale.ROOT);
    String number = text;
    long unit = 1;
    for (String suffix : new String[] {"IB", "B"}) {
      if (number.endsWith(suffix) && number.length() > suffix.length()) {
        number = number.substring(0, number.length() - suffix.length());
        break;
      }
    }
    if (!number.isEmpty()) {
      switch (number.charAt(number.length() - 1)) {
        case 'K' -> unit = 1024L;
        case 'M' -> unit = MIB;
        case 'G' -> unit = 1024 * MIB;
        case 'T' -> unit = 1024L * 1024 * MIB;
        default -> {}
      }
      if (unit > 1) {
        number = number.substring(0, number.length() - 1);
      } else if (!text.equals(number)) {
        number = ""; // "12B" is fine, "12IB" is not
        if (text.endsWith("B") && !text.endsWith("IB")) {
          number = text.substring(0, text.length() - 1);
        }
      }
    }
    try {
      BigDecimal bytes = new BigDecimal(number.strip()).multiply(BigDecimal.valueOf(unit));
      if (bytes.signum() >= 0 && bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
        return bytes.longValue();
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(
        "\""
            + value
            + "\" is not a size; give bytes, or a number with K, M, G or T (such as 512M or 2G)");
  }
}
