package dev.cascade.agent.emulator;

import dev.cascade.accelsim.trace.KernelHeader;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One kernel of the trace as the emulator sees it: its header and what its instructions are like.
 * The counts are warp instructions (one per line of a {@code .traceg}); {@code threadInstructions}
 * counts active threads, as GPGPU-Sim's {@code gpu_sim_insn} does.
 *
 * @param index the kernel's 1-based position among the list's kernel lines (its launch uid)
 * @param listedName the file name as the list writes it
 * @param file that file, resolved against the list's folder
 * @param header the trace header
 * @param warpInstructions warp instructions
 * @param threadInstructions thread instructions (the sum of the active lanes)
 * @param globalLoads warp instructions with active lanes that read global memory
 * @param globalStores warp instructions with active lanes that write global memory (atomics
 *     included)
 * @param sharedAccesses warp instructions that use shared memory
 * @param loadBytes bytes the global loads read, each access rounded up to 32-byte sectors
 * @param storeBytes bytes the global stores write, rounded as {@code loadBytes}
 * @param longestWarp instructions of the warp with the most
 * @param loadRoundTrips the most memory round trips one warp waits for: each time an instruction
 *     reads what a global load of a line new to the warp is still bringing (docs/emulator.md)
 * @param counted true when the numbers were counted in the file, false when estimated from its size
 *     and the launch shape (see docs/emulator.md)
 */
record EmulatedKernel(
    int index,
    String listedName,
    Path file,
    KernelHeader header,
    long warpInstructions,
    long threadInstructions,
    long globalLoads,
    long globalStores,
    long sharedAccesses,
    long loadBytes,
    long storeBytes,
    long longestWarp,
    long loadRoundTrips,
    boolean counted) {

  public EmulatedKernel {
    Objects.requireNonNull(listedName, "listedName");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(header, "header");
    if (warpInstructions < 0
        || threadInstructions < 0
        || globalLoads < 0
        || globalStores < 0
        || sharedAccesses < 0
        || loadBytes < 0
        || storeBytes < 0
        || longestWarp < 0
        || loadRoundTrips < 0) {
      throw new IllegalArgumentException("instruction counts cannot be negative: " + file);
    }
  }

  /** The kernel's name from its header. */
  public String name() {
    return header.name();
  }

  /** Thread blocks in the grid, at least 1. */
  public long blocks() {
    return Math.max(1, header.threadBlocks());
  }

  /** Warps per thread block, at least 1. */
  public int warpsPerBlock() {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, header.warpsPerBlock()));
  }

  /** The share of warp instructions that touch global memory, 0 to 1. */
  public double globalShare() {
    return warpInstructions == 0
        ? 0
        : Math.min(1.0, (globalLoads + globalStores) / (double) warpInstructions);
  }

  /** The share of warp instructions that touch shared memory, 0 to 1. */
  public double sharedShare() {
    return warpInstructions == 0 ? 0 : Math.min(1.0, sharedAccesses / (double) warpInstructions);
  }
}
