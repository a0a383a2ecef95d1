package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.stream.IntStream;

/**
 * The facts of a post-processed trace: its {@code kernelslist.g}, the memcpys and, per listed
 * kernel, the file, its size and its header (and, on request, its instruction count).
 *
 * <p>{@link #read(Path)} reads the list and each kernel's header only: a few kilobytes per kernel,
 * even for xz files of gigabytes. {@link #readCountingInstructions(Path)} also reads every kernel
 * file in full. Both read kernels in parallel, one thread per core.
 *
 * @param kernelsList the {@code kernelslist.g} read
 * @param memcpys its memcpy lines, in order
 * @param kernels its kernels, in order
 * @param otherContexts the processed lists of the trace's other CUDA contexts beside {@code
 *     kernelsList} ({@code kernelslist_ctx_0x<context>.g}, which Accel-Sim 2.0's post-processor
 *     writes for every context but the first), in context order; empty for one context. Only {@code
 *     kernelsList}'s kernels are read.
 */
public record TraceInfo(
    Path kernelsList,
    List<KernelsList.Memcpy> memcpys,
    List<KernelInfo> kernels,
    List<Path> otherContexts) {

  public TraceInfo {
    Objects.requireNonNull(kernelsList, "kernelsList");
    memcpys = List.copyOf(memcpys);
    kernels = List.copyOf(kernels);
    otherContexts = List.copyOf(otherContexts);
  }

  /** The CUDA contexts the trace holds a processed list for: 1 plus {@link #otherContexts}. */
  public int contextCount() {
    return 1 + otherContexts.size();
  }

  /**
   * Reads a trace given as a {@code kernelslist.g} file, a folder holding one, or a Cascade trace
   * folder holding {@code traces/kernelslist.g}.
   *
   * @throws NoSuchFileException when there is no {@code kernelslist.g} (the message says whether a
   *     raw {@code kernelslist} is there, which {@link PostProcessor} turns into one)
   * @throws TraceFormatException when the list names a file that is missing, or a list line or
   *     kernel header cannot be read
   * @throws IOException when a file cannot be read
   */
  public static TraceInfo read(Path trace) throws IOException {
    return read(trace, false);
  }

  /** As {@link #read(Path)}, and counts every kernel's instructions, reading each file in full. */
  public static TraceInfo readCountingInstructions(Path trace) throws IOException {
    return read(trace, true);
  }

  /** The folder holding {@code kernelslist.g} and the kernel files. */
  public Path folder() {
    return kernelsList.toAbsolutePath().normalize().getParent();
  }

  /** The kernel count: the kernel lines of {@code kernelslist.g}. */
  public int kernelCount() {
    return kernels.size();
  }

  /** The memcpy lines of {@code kernelslist.g}. */
  public int memcpyCount() {
    return memcpys.size();
  }

  /** The listed kernel files' total size in bytes (a file listed twice counts twice). */
  public long sizeOnDisk() {
    return kernels.stream().mapToLong(KernelInfo::sizeOnDisk).sum();
  }

  /** All kernels' instructions, when every kernel's were counted. */
  public OptionalLong instructions() {
    long total = 0;
    for (KernelInfo kernel : kernels) {
      if (kernel.instructions().isEmpty()) {
        return OptionalLong.empty();
      }
      total += kernel.instructions().getAsLong();
    }
    return OptionalLong.of(total);
  }

  private static TraceInfo read(Path trace, boolean countInstructions) throws IOException {
    Path listFile =
        TraceLayout.findProcessedList(trace)
            .map(file -> file.toAbsolutePath().normalize())
            .orElseThrow(() -> noProcessedList(trace));
    KernelsList list = KernelsList.read(listFile);
    List<KernelsList.Kernel> kernels = list.kernels();
    kernels.forEach(list::requireFile);
    List<Integer> indexes = IntStream.range(0, kernels.size()).boxed().toList();
    List<KernelInfo> infos =
        Parallel.map(
            indexes,
            Runtime.getRuntime().availableProcessors(),
            "trace-info",
            i -> {
              KernelsList.Kernel kernel = kernels.get(i);
              KernelHeader header = TraceReader.readHeader(kernel.file());
              OptionalLong instructions =
                  countInstructions
                      ? OptionalLong.of(TraceReader.countInstructions(kernel.file()))
                      : OptionalLong.empty();
              return new KernelInfo(
                  i + 1,
                  kernel.line(),
                  kernel.file(),
                  Files.size(kernel.file()),
                  header,
                  instructions);
            });
    return new TraceInfo(
        listFile, list.memcpys(), infos, TraceLayout.findOtherContextLists(listFile));
  }

  private static NoSuchFileException noProcessedList(Path trace) {
    if (!Files.exists(trace)) {
      return new NoSuchFileException(trace.toString(), null, "no such file or folder");
    }
    String hint =
        TraceLayout.findRawList(trace).isPresent()
            ? "only a raw 'kernelslist' is there; post-process it first (cascade postprocess "
                + trace
                + ")"
            : "expected kernelslist.g in it or in its traces/ folder";
    return new NoSuchFileException(trace.toString(), null, "no kernelslist.g; " + hint);
  }
}
