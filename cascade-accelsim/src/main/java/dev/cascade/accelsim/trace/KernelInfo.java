package dev.cascade.accelsim.trace;

import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Facts about one kernel of a trace.
 *
 * @param index the kernel's 1-based position among the list's kernel lines
 * @param listedName the file name as the list writes it, {@code kernel-1.traceg.xz}
 * @param file that file, resolved against the list's folder
 * @param sizeOnDisk the file's size in bytes
 * @param header the trace header
 * @param instructions the warp instructions, when they were counted (see {@link
 *     TraceReader#countInstructions})
 */
public record KernelInfo(
    int index,
    String listedName,
    Path file,
    long sizeOnDisk,
    KernelHeader header,
    OptionalLong instructions) {

  public KernelInfo {
    Objects.requireNonNull(listedName, "listedName");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(instructions, "instructions");
  }

  /** The kernel's name from its header. */
  public String name() {
    return header.name();
  }

  /** Thread blocks in the kernel's grid. */
  public long threadBlocks() {
    return header.threadBlocks();
  }
}
