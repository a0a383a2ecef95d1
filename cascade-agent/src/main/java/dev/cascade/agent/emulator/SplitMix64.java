package dev.cascade.agent.emulator;

import java.nio.charset.StandardCharsets;

/**
 * A tiny deterministic random generator (Steele, Lea and Flood's SplitMix64), written out here so
 * the emulator's numbers never change with the JDK: same seed, same sequence, forever.
 */
final class SplitMix64 {

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private long state;

  SplitMix64(long seed) {
    this.state = seed;
  }

  /** A generator for a combination of values (order matters). */
  static SplitMix64 of(long... parts) {
    long seed = 0x243F6A8885A308D3L;
    for (long part : parts) {
      seed = mix(seed ^ mix(part + GOLDEN));
    }
    return new SplitMix64(seed);
  }

  long nextLong() {
    state += GOLDEN;
    return mix(state);
  }

  /** Uniform in [0, 1). */
  double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Uniform in [low, high). */
  double between(double low, double high) {
    return low + (high - low) * nextDouble();
  }

  /** A stable 64-bit hash of a string's UTF-8 bytes (FNV-1a, then mixed). */
  static long hash(String text) {
    long h = 0xcbf29ce484222325L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xFF;
      h *= 0x100000001b3L;
    }
    return mix(h);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
