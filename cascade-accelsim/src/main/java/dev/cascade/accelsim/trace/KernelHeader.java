package dev.cascade.accelsim.trace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The header of one kernel's trace: the {@code -key = value} lines NVBit's tracer writes before the
 * instructions, the same in a raw {@code .trace} and a post-processed {@code .traceg}.
 *
 * <p>Numbers the header lacks are 0 and the NVBit version is empty; {@link #fields()} tells what
 * was really there.
 *
 * @param name {@code -kernel name}, the mangled kernel name
 * @param id {@code -kernel id}, the tracer's 1-based launch number
 * @param grid {@code -grid dim}
 * @param block {@code -block dim}
 * @param shmem {@code -shmem}, static shared memory in bytes
 * @param nregs {@code -nregs}, registers per thread
 * @param binaryVersion {@code -binary version}, the SASS version (80 for sm_80, 90 for sm_90)
 * @param cudaStreamId {@code -cuda stream id}
 * @param nvbitVersion {@code -nvbit version}
 * @param tracerVersion {@code -accelsim tracer version}
 * @param fields every header line in file order, key as written ({@code "kernel name"}, {@code
 *     "shmem base_addr"}, ...) to its value, the lines above included
 */
public record KernelHeader(
    String name,
    long id,
    Dim3 grid,
    Dim3 block,
    long shmem,
    int nregs,
    int binaryVersion,
    long cudaStreamId,
    String nvbitVersion,
    int tracerVersion,
    Map<String, String> fields) {

  public KernelHeader {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(grid, "grid");
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(nvbitVersion, "nvbitVersion");
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** Thread blocks in the grid. */
  public long threadBlocks() {
    return grid.count();
  }

  /** Threads in one thread block. */
  public long threadsPerBlock() {
    return block.count();
  }

  /** Warps in one thread block, {@code ceil(threads / 32)}. */
  public long warpsPerBlock() {
    return (threadsPerBlock() + 31) / 32;
  }

  /** The value of header line {@code -key = value}, by its key as written. */
  public Optional<String> field(String key) {
    return Optional.ofNullable(fields.get(key));
  }
}
