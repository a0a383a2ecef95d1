package dev.cascade.accelsim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Accel-Sim's trace post-processor ({@code post-traces-processing}) in Java: turns the tracer's raw
 * {@code kernelslist} and {@code kernel-N.trace} files into the {@code kernelslist.g} and {@code
 * kernel-N.traceg} files Accel-Sim runs, byte for byte what the C++ tool writes ({@code .trace.xz}
 * becomes {@code .traceg.xz}: the same text, compressed with xz preset 1 as the tool's {@code xz
 * -1} does, though not the same compressed bytes).
 *
 * <pre>{@code
 * PostProcessor.Result result = PostProcessor.builder().build().process(Path.of("traces"));
 * }</pre>
 *
 * <p>Kernels are processed in parallel on a bounded pool. Each kernel streams: the raw file is read
 * once, and each warp's instruction lines are held in pages of memory up to {@link
 * Builder#bufferBytesPerKernel} and spilled to temporary files beside the output beyond that, so
 * memory is about {@code parallelism * bufferBytesPerKernel} whatever the trace's size (64 MiB in
 * all by default). Every output is written to a hidden temporary file, forced to disk and renamed
 * into place, and {@code kernelslist.g} is written last, so a crash never leaves a partial file
 * under a final name and a {@code kernelslist.g} means every kernel is done. A failure stops the
 * other kernels and removes their temporary files; outputs of kernels that finished stay.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PostProcessor {

  /**
   * Told about each kernel, from the worker threads (so possibly concurrently): implementations
   * must be thread-safe.
   */
  public interface Listener {
    /** A kernel's raw trace is about to be read. */
    default void kernelStarted(Path rawTrace) {}

    /** A kernel's output is in place. */
    default void kernelFinished(KernelResult result) {}
  }

  /**
   * One post-processed kernel.
   *
   * @param input the raw trace read
   * @param output the {@code .traceg} or {@code .traceg.xz} written
   * @param threadBlocks thread blocks written (those with at least one instruction line)
   * @param warpsPerBlock warps written per thread block
   * @param instructions instruction lines written
   * @param droppedLdgsts LDGSTS lines dropped (the shared-memory halves)
   * @param droppedTrywaits TRYWAIT lines dropped for waiting on an mbarrier nothing arrives on
   *     (traces with 11 ids only, as the newest upstream tool)
   * @param ids the ids each raw instruction line starts with, which tell the tracer's generation
   *     ({@link RawIds#FOUR} for a kernel without instruction lines)
   * @param textBytes bytes of {@code .traceg} text (before xz, if any)
   * @param spillRuns times the buffers spilled to disk (0 when the kernel fitted in memory)
   * @param elapsed time spent on this kernel
   */
  public record KernelResult(
      Path input,
      Path output,
      long threadBlocks,
      int warpsPerBlock,
      long instructions,
      long droppedLdgsts,
      long droppedTrywaits,
      RawIds ids,
      long textBytes,
      int spillRuns,
      Duration elapsed) {}

  /**
   * One post-processed trace.
   *
   * @param rawKernelsList the first raw list read ({@code kernelslist}, or the first context's)
   * @param kernelsList the {@code kernelslist.g} written beside it
   * @param memcpyCount memcpy lines copied, over every list
   * @param kernels the kernels processed, in list order (a file listed twice is processed once)
   * @param kernelsLists every list written, {@code kernelslist.g} first and then one {@code
   *     kernelslist_ctx_0x<context>.g} per other CUDA context
   * @param elapsed the whole run's time
   */
  public record Result(
      Path rawKernelsList,
      Path kernelsList,
      int memcpyCount,
      List<KernelResult> kernels,
      List<Path> kernelsLists,
      Duration elapsed) {
    public Result {
      kernels = List.copyOf(kernels);
      kernelsLists = List.copyOf(kernelsLists);
    }
  }

  /** What the post-processor writes for each kernel. */
  public enum Format {
    /**
     * {@code .traceg} text ({@code .traceg.xz} for an {@code .trace.xz} input), as the 2024 tool
     * and the newest one's {@code --text}; the default.
     */
    TEXT,
    /**
     * Accel-Sim 2.0's {@code .tracez} (zstd; {@link Tracez}), the newest upstream tool's default.
     * It holds the same text, so it decodes to the {@link #TEXT} output byte for byte.
     */
    TRACEZ
  }

  static final long MAX_BUFFER_BYTES = 1L << 30;
  static final int DEFAULT_MAX_SPILL_RUNS = 128;

  /**
   * Memory for instruction lines shared by the kernels processed at once, by default: a fixed
   * figure, not a share of the heap, so a whole {@code cascade postprocess} stays well under 256 MB
   * of RSS on any trace (spilling costs a sequential write and read of the spilled bytes).
   */
  static final long DEFAULT_BUFFER_TOTAL = 64L << 20;

  /** Below this a window of many resident warps, each with a partial page, spills too often. */
  static final long MIN_DEFAULT_BUFFER = 8L << 20;

  private static final int DEFAULT_XZ_PRESET = 1;

  private final int parallelism;
  private final long bufferBytesPerKernel;
  private final Path spillDirectory;
  private final int xzPreset;
  private final int maxSpillRuns;
  private final Listener listener;
  private final Format format;

  private PostProcessor(Builder builder) {
    this.parallelism =
        builder.parallelism > 0 ? builder.parallelism : Runtime.getRuntime().availableProcessors();
    this.bufferBytesPerKernel =
        builder.bufferBytesPerKernel > 0
            ? builder.bufferBytesPerKernel
            : Math.max(MIN_DEFAULT_BUFFER, DEFAULT_BUFFER_TOTAL / parallelism);
    this.spillDirectory = builder.spillDirectory;
    this.xzPreset = builder.xzPreset;
    this.maxSpillRuns = builder.maxSpillRuns;
    this.listener = builder.listener;
    this.format = builder.format;
  }

  /**
   * A builder with the defaults: one thread per core, 64 MiB of buffers shared among the parallel
   * kernels (at least 8 MiB each), xz preset 1.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Post-processes a trace given as its raw {@code kernelslist} file, a folder holding one, or a
   * Cascade trace folder holding {@code traces/kernelslist}; a folder may instead hold Accel-Sim
   * 2.0's per-context lists {@code kernelslist_ctx_0x<context>} ({@link TraceLayout#findRawLists}).
   * Writes {@code kernel-N.traceg} (or {@code .traceg.xz}) beside each raw trace, replacing any
   * already there, then the other contexts' {@code kernelslist_ctx_0x<context>.g} and last {@code
   * kernelslist.g} (for {@code kernelslist} or the first context).
   *
   * <p>Unknown list lines fail the run for a 2024 trace (4 ids), and are skipped, as upstream's
   * newest tool does, for an Accel-Sim 2.0 one (a per-context list, or 11 ids).
   *
   * @throws NoSuchFileException when there is no raw list
   * @throws TraceFormatException when a list line or a raw trace cannot be read; nothing is written
   *     for a bad list, and a bad kernel stops the run before any list is written
   * @throws IOException when a file cannot be read or written
   */
  public Result process(Path trace) throws IOException {
    long started = System.nanoTime();
    List<Path> listFiles =
        TraceLayout.findRawLists(trace).stream()
            .map(file -> file.toAbsolutePath().normalize())
            .toList();
    if (listFiles.isEmpty()) {
      throw new NoSuchFileException(
          trace.toString(),
          null,
          Files.exists(trace)
              ? "no raw 'kernelslist' (or per-context 'kernelslist_ctx_0x...') in it or in its"
                  + " traces/ folder"
              : "no such file or folder");
    }
    List<PlannedList> plans = new ArrayList<>();
    for (int i = 0; i < listFiles.size(); i++) {
      plans.add(plan(listFiles.get(i), i == 0));
    }
    Set<Path> inputs = new LinkedHashSet<>();
    for (PlannedList plan : plans) {
      inputs.addAll(plan.inputs());
    }
    List<KernelResult> kernels =
        Parallel.map(new ArrayList<>(inputs), parallelism, "postprocess", this::processKernel);
    // kernelslist.g last: its presence says every kernel and every other context's list is done.
    for (PlannedList plan : plans.reversed()) {
      TraceFiles.writeAtomically(
          plan.output(),
          -1,
          out -> {
            out.write(plan.content());
            return null;
          });
    }
    int memcpys = plans.stream().mapToInt(PlannedList::memcpyCount).sum();
    return new Result(
        listFiles.getFirst(),
        plans.getFirst().output(),
        memcpys,
        kernels,
        plans.stream().map(PlannedList::output).toList(),
        Duration.ofNanos(System.nanoTime() - started));
  }

  /** One raw list read and checked, before any kernel is processed. */
  private record PlannedList(Path output, byte[] content, int memcpyCount, Set<Path> inputs) {}

  private PlannedList plan(Path listFile, boolean first) throws IOException {
    KernelsList list = KernelsList.readSkippingUnknownLines(listFile);
    if (!list.skippedLines().isEmpty() && !skipsUnknownLines(listFile, list)) {
      KernelsList.read(listFile); // the 2024 tool stops at an unknown line: fail naming it
    }
    Set<Path> inputs = new LinkedHashSet<>();
    StringBuilder processedList = new StringBuilder();
    for (KernelsList.Entry entry : list.entries()) {
      switch (entry) {
        case KernelsList.Memcpy memcpy -> processedList.append(memcpy.line()).append('\n');
        case KernelsList.Kernel kernel -> {
          String processedName = processedNameOrNull(kernel.line(), format);
          if (processedName == null) {
            throw new TraceFormatException(
                listFile,
                kernel.lineNumber(),
                "'"
                    + kernel.line()
                    + "' is not a raw trace (.trace or .trace.xz); is this folder post-processed"
                    + " already?");
          }
          list.requireFile(kernel);
          inputs.add(kernel.file());
          processedList.append(processedName).append('\n');
        }
      }
    }
    return new PlannedList(
        listFile.resolveSibling(TraceLayout.processedListName(listFile, first)),
        processedList.toString().getBytes(StandardCharsets.UTF_8),
        list.memcpys().size(),
        inputs);
  }

  /**
   * Whether a list is Accel-Sim 2.0's, whose post-processor skips lines it does not know: a
   * per-context list, or one whose first kernel has 11 ids.
   */
  private static boolean skipsUnknownLines(Path listFile, KernelsList list) throws IOException {
    if (listFile.getFileName().toString().startsWith(TraceLayout.CONTEXT_LIST_PREFIX)) {
      return true;
    }
    for (KernelsList.Kernel kernel : list.kernels()) {
      if (Files.isRegularFile(kernel.file())) {
        return TraceReader.readRawIds(kernel.file()).orElse(RawIds.FOUR) == RawIds.ELEVEN;
      }
    }
    return false;
  }

  /**
   * Post-processes one raw kernel trace, writing {@link #processedName its processed name} beside
   * it (replacing any file there).
   *
   * @throws IllegalArgumentException when the name does not end in {@code .trace} or {@code
   *     .trace.xz}
   * @throws TraceFormatException when a line cannot be read; nothing is left under the output name
   * @throws IOException when a file cannot be read or written
   */
  public KernelResult processKernel(Path rawTrace) throws IOException {
    long started = System.nanoTime();
    String outputName = processedName(rawTrace.getFileName().toString(), format);
    Path output = rawTrace.resolveSibling(outputName);
    Path spills = spillDirectory != null ? spillDirectory : output.toAbsolutePath().getParent();
    listener.kernelStarted(rawTrace);
    KernelGrouper.Stats stats;
    try (InputStream in = TraceFiles.openDecompressed(rawTrace)) {
      KernelGrouper grouper =
          new KernelGrouper(
              rawTrace, bufferBytesPerKernel, spills, "." + outputName + ".", maxSpillRuns);
      if (format == Format.TRACEZ) {
        // The text first, to a hidden file beside the output; then the .tracez made from it.
        Path text = TraceFiles.newTemporary(output);
        try {
          try (OutputStream out = Files.newOutputStream(text)) {
            stats = grouper.group(in, out);
          }
          TraceFiles.writeAtomically(
              output,
              -1,
              out -> {
                TracezWriter.write(text, out);
                return null;
              });
        } finally {
          Files.deleteIfExists(text);
        }
      } else {
        stats =
            TraceFiles.writeAtomically(
                output, outputName.endsWith(".xz") ? xzPreset : -1, out -> grouper.group(in, out));
      }
    }
    KernelResult result =
        new KernelResult(
            rawTrace,
            output,
            stats.threadBlocks(),
            stats.warpsPerBlock(),
            stats.instructions(),
            stats.droppedLdgsts(),
            stats.droppedTrywaits(),
            stats.ids(),
            stats.outputBytes(),
            stats.spillRuns(),
            Duration.ofNanos(System.nanoTime() - started));
    listener.kernelFinished(result);
    return result;
  }

  /**
   * The name the post-processor gives a raw trace's output: {@code kernel-1.trace} becomes {@code
   * kernel-1.traceg} and {@code kernel-1.trace.xz} becomes {@code kernel-1.traceg.xz}.
   *
   * @throws IllegalArgumentException for a name ending in neither
   */
  public static String processedName(String rawName) {
    return processedName(rawName, Format.TEXT);
  }

  /**
   * The name the post-processor gives a raw trace's output in {@code format}: as {@link
   * #processedName(String)} for text, and {@code kernel-1.trace} or {@code kernel-1.trace.xz}
   * becomes {@code kernel-1.tracez} for {@link Format#TRACEZ}, as upstream names them.
   *
   * @throws IllegalArgumentException for a name ending in neither {@code .trace} nor {@code
   *     .trace.xz}
   */
  public static String processedName(String rawName, Format format) {
    String name = processedNameOrNull(rawName, format);
    if (name == null) {
      throw new IllegalArgumentException(
          "'" + rawName + "' is not a raw trace name; expected .trace or .trace.xz");
    }
    return name;
  }

  private static String processedNameOrNull(String rawName, Format format) {
    if (format == Format.TRACEZ) {
      if (rawName.endsWith(".trace.xz")) {
        return rawName.substring(0, rawName.length() - 3) + "z";
      }
      return rawName.endsWith(".trace") ? rawName + "z" : null;
    }
    if (rawName.endsWith(".trace.xz")) {
      return rawName.substring(0, rawName.length() - 3) + "g.xz";
    }
    if (rawName.endsWith(".trace")) {
      return rawName + "g";
    }
    return null;
  }

  /** Kernels processed at once. */
  public int parallelism() {
    return parallelism;
  }

  /** Memory for one kernel's instruction lines before they spill to disk. */
  public long bufferBytesPerKernel() {
    return bufferBytesPerKernel;
  }

  /** Builds a {@link PostProcessor}; rejects bad values at once. */
  public static final class Builder {
    private int parallelism;
    private long bufferBytesPerKernel;
    private Path spillDirectory;
    private int xzPreset = DEFAULT_XZ_PRESET;
    private int maxSpillRuns = DEFAULT_MAX_SPILL_RUNS;
    private Listener listener = new Listener() {};
    private Format format = Format.TEXT;

    private Builder() {}

    /** What to write per kernel; default {@link Format#TEXT}. */
    public Builder format(Format format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /** Kernels processed at once, at least 1; default: the available processors. */
    public Builder parallelism(int parallelism) {
      if (parallelism < 1) {
        throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
      }
      this.parallelism = parallelism;
      return this;
    }

    /**
     * Memory for one kernel's instruction lines before they spill to disk, 1 KiB to 1 GiB; default:
     * 64 MiB shared among the parallel kernels, at least 8 MiB each, whatever the heap.
     */
    public Builder bufferBytesPerKernel(long bytes) {
      if (bytes < 1024 || bytes > MAX_BUFFER_BYTES) {
        throw new IllegalArgumentException(
            "bufferBytesPerKernel must be 1024 to " + MAX_BUFFER_BYTES + ", not " + bytes);
      }
      this.bufferBytesPerKernel = bytes;
      return this;
    }

    /** Where spill files go; default: each output's folder (same disk as the trace). */
    public Builder spillDirectory(Path directory) {
      this.spillDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** The xz preset for {@code .traceg.xz} outputs, 0 to 9; default 1, as the C++ tool. */
    public Builder xzPreset(int preset) {
      if (preset < 0 || preset > 9) {
        throw new IllegalArgumentException("xzPreset must be 0 to 9, not " + preset);
      }
      this.xzPreset = preset;
      return this;
    }

    /** Told about each kernel as it starts and finishes. */
    public Builder listener(Listener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Spill runs kept before the newest are merged into one (bounds open files); tests lower it.
     */
    Builder maxSpillRuns(int runs) {
      if (runs < 2) {
        throw new IllegalArgumentException("maxSpillRuns must be at least 2, not " + runs);
      }
      this.maxSpillRuns = runs;
      return this;
    }

    public PostProcessor build() {
      return new PostProcessor(this);
    }
  }
}
