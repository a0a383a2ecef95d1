package dev.cascade.core.internal.sampling;

/**
 * What sampling knows of one kernel launch, from what Cascade kept when the trace was processed:
 * the header's name and shape, the warp instructions counted in the trace file, and, where the
 * emulator counted the file, its global memory instructions and the bytes they move.
 *
 * @param position the launch's position among the kernel lines of {@code kernelslist.g}, from 1
 * @param name the kernel's name; null when the header could not be read
 * @param grid {@code "x,y,z"}; null when unknown
 * @param block {@code "x,y,z"}; null when unknown
 * @param instructions warp-level instructions; null when not counted
 * @param memoryInstructions global loads and stores (warp-level); null when not counted
 * @param memoryBytes the bytes those loads and stores move; null when not counted
 */
public record KernelFeatures(
    int position,
    String name,
    String grid,
    String block,
    Long instructions,
    Long memoryInstructions,
    Long memoryBytes) {

  public KernelFeatures {
    if (position < 1) {
      throw new IllegalArgumentException("kernel positions count from 1; got " + position);
    }
  }

  /** A launch known by its header and instruction count only. */
  public static KernelFeatures of(
      int position, String name, String grid, String block, Long instructions) {
    return new KernelFeatures(position, name, grid, block, instructions, null, null);
  }

  /** Bytes moved per warp instruction; null when either count is unknown or there are none. */
  Double memoryIntensity() {
    return memoryBytes == null || instructions == null || instructions == 0
        ? null
        : (double) memoryBytes / instructions;
  }
}
