package dev.cascade.accelsim.stats;

import java.util.Objects;

/**
 * A {@code launching memcpy command : MemcpyHtoD,0x00007f73bee00000,4000} line.
 *
 * @param kind the copy's kind as printed, for example {@code MemcpyHtoD}
 * @param address the device address (an unsigned 64-bit value; print it with {@link
 *     Long#toHexString(long)})
 * @param bytes the number of bytes copied, not negative
 */
public record MemcpyCommand(String kind, long address, long bytes) {

  public MemcpyCommand {
    Objects.requireNonNull(kind, "kind");
    if (bytes < 0) {
      throw new IllegalArgumentException("memcpy byte count must not be negative: " + bytes);
    }
  }
}
