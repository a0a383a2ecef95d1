package dev.cascade.core.internal.output;

/**
 * What storing one chunk of a sim's output did.
 *
 * @param stored false when a chunk with the same seq was already held (a re-send: nothing changed)
 * @param contiguous how many chunks the sim has without a gap: chunks 0 to {@code contiguous - 1}
 *     are all held
 */
public record ChunkReceipt(boolean stored, long contiguous) {

  public ChunkReceipt {
    if (contiguous < 0) {
      throw new IllegalArgumentException("a chunk count cannot be negative; got " + contiguous);
    }
  }
}
