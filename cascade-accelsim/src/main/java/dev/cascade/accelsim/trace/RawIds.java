package dev.cascade.accelsim.trace;

/**
 * The ids that start each instruction line of a raw trace, which tell the tracer's generation. The
 * trace itself says which: a line with 11 or more leading decimal fields carries 11 ids (with 4 ids
 * a line has at most 8: the ids, a line number, the PC, the mask and the destination count, and the
 * next field is a register or an opcode).
 */
public enum RawIds {
  /** {@code ctaX ctaY ctaZ warp}: the tracer before Accel-Sim 2.0. */
  FOUR(4),
  /**
   * {@code ctaX ctaY ctaZ warp clusterX clusterY clusterZ ctaInClusterX ctaInClusterY ctaInClusterZ
   * clusterRank}: Accel-Sim 2.0's tracer.
   */
  ELEVEN(11);

  private final int count;

  RawIds(int count) {
    this.count = count;
  }

  /** How many ids start each instruction line. */
  public int count() {
    return count;
  }
}
