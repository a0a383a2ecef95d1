package dev.cascade.core.internal.store;

import com.github.luben.zstd.Zstd;
import java.util.Arrays;

/**
 * How logs and kernel statistics are kept at rest: zstd frames (zstd-jni, already in the build for
 * Accel-Sim's {@code .tracez}). Chunks use a fast level, since they are compressed on every sim's
 * report path, before the writer's turn; statistics, written once per kernel, a stronger one.
 * Accel-Sim logs shrink about 20 times in 64 KiB chunks at level 1.
 */
final class Compression {

  /** zstd's frame magic number, little-endian: what every frame starts with. */
  private static final byte[] MAGIC = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD};

  /** Chunks: about 1 GB/s a core, within 5% of level 3's size on Accel-Sim logs. */
  static final int CHUNK_LEVEL = 1;

  /** Kernel statistics: written once per kernel, read for every comparison. */
  static final int STATS_LEVEL = 6;

  private Compression() {}

  /** {@code bytes} as one zstd frame at {@code level}; the frame records the original size. */
  static byte[] compress(byte[] bytes, int level) {
    return Zstd.compress(bytes, level);
  }

  /**
   * The bytes of the zstd frame {@code frame}, which holds {@code size} bytes.
   *
   * @throws IllegalStateException when the frame is damaged or does not hold {@code size} bytes
   */
  static byte[] decompress(byte[] frame, long size) {
    if (size < 0 || size > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("a stored frame cannot hold " + size + " bytes");
    }
    byte[] bytes;
    try {
      bytes = Zstd.decompress(frame, (int) size);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "a stored zstd frame of " + frame.length + " bytes cannot be read: " + e.getMessage(), e);
    }
    if (bytes.length != size) {
      throw new IllegalStateException(
          "a stored zstd frame held " + bytes.length + " bytes where " + size + " were kept");
    }
    return bytes;
  }

  /** The bytes of a zstd frame that records its own size ({@link #compress} writes it). */
  static byte[] decompress(byte[] frame) {
    long size = Zstd.getFrameContentSize(frame);
    if (size < 0) {
      throw new IllegalStateException(
          "a stored zstd frame of " + frame.length + " bytes does not say its size (" + size + ")");
    }
    return decompress(frame, size);
  }

  /** True when {@code bytes} start as a zstd frame does. */
  static boolean isFrame(byte[] bytes) {
    return bytes != null
        && bytes.length >= MAGIC.length
        && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }
}
