package dev.cascade.core;

import java.util.Objects;

/**
 * One kernel line of a trace's {@code kernelslist.g}, with what its header says where that was
 * cheap to read.
 *
 * @param index 1-based position among the kernel lines
 * @param file the trace file, relative to the trace's {@code traces/} folder
 * @param name the kernel's name; null when the header could not be read
 * @param grid grid dimensions as {@code "x,y,z"}; null when unknown
 * @param block block dimensions as {@code "x,y,z"}; null when unknown
 * @param instructions warp-level instruction count; null when not counted
 */
public record TraceKernel(
    int index, String file, String name, String grid, String block, Long instructions) {

  public TraceKernel {
    Objects.requireNonNull(file, "file");
    if (index < 1) {
      throw new IllegalArgumentException("kernel index starts at 1; got " + index);
    }
  }
}
