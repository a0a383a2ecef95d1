package dev.cascade.core.internal.trace;

import dev.cascade.accelsim.trace.Dim3;
import dev.cascade.accelsim.trace.KernelHeader;
import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.PostProcessor;
import dev.cascade.accelsim.trace.TraceFormatException;
import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.accelsim.trace.TraceReader;
import dev.cascade.core.TraceKernel;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link TraceProcessor} on the Accel-Sim formats library ({@code dev.cascade.accelsim.trace}):
 * post-processes a raw {@code traces/kernelslist} (or Accel-Sim 2.0's per-context {@code
 * traces/kernelslist_ctx_0x...} lists) when there is no {@code traces/kernelslist.g}, reads the
 * kernel lines of {@code kernelslist.g}, and reads each listed kernel's header (only the first
 * lines, even of {@code .traceg.xz}) for its name, grid and block. Instructions are counted only
 * for small kernel files, within a budget, so processing stays quick on big traces. Every listed
 * kernel file must exist inside {@code traces/} as a plain file. Reasons name the file relative to
 * the trace folder, and the line: {@code traces/kernelslist.g:3: ...}.
 */
final class AccelSimProcessor implements TraceProcessor {

  /** Kernel files up to this size on disk get their instructions counted. */
  static final long COUNT_INSTRUCTIONS_UP_TO_BYTES = 1L << 20;

  /** At most this many bytes on disk are read to count instructions, over a whole trace. */
  static final long COUNT_INSTRUCTIONS_BUDGET_BYTES = 32L << 20;

  /** Headers are read for at most this many kernels; later kernels keep only their file. */
  static final int MAX_HEADERS = 20_000;

  private final PostProcessor postProcessor;

  AccelSimProcessor() {
    this(
        PostProcessor.builder()
            .parallelism(Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2)))
            .build());
  }

  AccelSimProcessor(PostProcessor postProcessor) {
    this.postProcessor = postProcessor;
  }

  @Override
  public Facts process(Path traceFolder) throws TraceProcessingException {
    Path traces = traceFolder.resolve(TraceLayout.TRACES_FOLDER);
    requirePlain(traceFolder, traces, true);
    removeLeftovers(traces);
    Path processed = traces.resolve(TraceLayout.PROCESSED_LIST);
    boolean postProcessed = false;
    if (!Files.exists(processed, LinkOption.NOFOLLOW_LINKS)) {
      List<Path> rawLists = rawLists(traces);
      if (rawLists.isEmpty()) {
        throw new TraceProcessingException(
            "traces/kernelslist.g is missing and there is no raw traces/kernelslist (or per-context"
                + " traces/kernelslist_ctx_0x...) to post-process; upload the trace's traces/"
                + " folder");
      }
      for (Path raw : rawLists) {
        requirePlain(traceFolder, raw, false);
      }
      postProcess(traceFolder, traces, rawLists);
      postProcessed = true;
    }
    requirePlain(traceFolder, processed, false);
    try {
      KernelsList list = KernelsList.read(processed);
      return new Facts(list.kernelCount(), kernels(traceFolder, traces, list), postProcessed);
    } catch (TraceFormatException e) {
      throw new TraceProcessingException(reason(traceFolder, e), e);
    } catch (IOException | UncheckedIOException e) {
      throw new TraceProcessingException(
          "cannot read " + relative(traceFolder, processed) + ": " + e, e);
    }
  }

  /**
   * The post-processor's hidden files of an earlier run that never finished (a kill -9 leaves
   * {@code .kernel-3.traceg.<hex>.tmp} and {@code .kernel-3.traceg.spill-<hex>.tmp}): nothing reads
   * them, and processing the trace again writes its own.
   */
  static final java.util.regex.Pattern LEFTOVER =
      java.util.regex.Pattern.compile("\\..+\\.(spill-)?[0-9a-f]+\\.tmp");

  /** Deletes {@link #LEFTOVER} files directly in {@code traces}; one that will not go is left. */
  static void removeLeftovers(Path traces) {
    try (java.util.stream.Stream<Path> files = Files.list(traces)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (LEFTOVER.matcher(file.getFileName().toString()).matches()
            && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          try {
            Files.deleteIfExists(file);
          } catch (IOException e) {
            // Harmless where it is; the next processing tries again.
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // The folder is read again just after, with an error that names it.
    }
  }

  /**
   * Runs the post-processor: raw {@code kernelslist} and {@code .trace} files in, {@code
   * kernelslist.g} and {@code .traceg} files out, beside them. The post-processor writes {@code
   * kernelslist.g} last and every file atomically, so a {@code kernelslist.g} means it finished.
   */
  private void postProcess(Path traceFolder, Path traces, List<Path> rawLists)
      throws TraceProcessingException {
    try {
      for (Path rawList : rawLists) {
        for (KernelsList.Kernel kernel : KernelsList.readSkippingUnknownLines(rawList).kernels()) {
          requirePlain(traceFolder, kernel.file(), false);
        }
      }
      postProcessor.process(traces);
    } catch (TraceFormatException e) {
      throw new TraceProcessingException(reason(traceFolder, e), e);
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      throw new TraceProcessingException("post-processing was interrupted", e);
    } catch (IOException | UncheckedIOException e) {
      throw new TraceProcessingException(
          "post-processing " + relative(traceFolder, traces) + " failed: " + e, e);
    }
  }

  /**
   * The raw lists directly in {@code traces/}: {@code kernelslist}, {@code kernelslist_ctx_0x*}.
   */
  private static List<Path> rawLists(Path traces) {
    Path folder = traces.toAbsolutePath().normalize();
    return TraceLayout.findRawLists(traces).stream()
        .filter(list -> folder.equals(list.toAbsolutePath().normalize().getParent()))
        .toList();
  }

  private static List<TraceKernel> kernels(Path traceFolder, Path traces, KernelsList list)
      throws IOException, TraceProcessingException {
    List<TraceKernel> kernels = new ArrayList<>();
    long budget = COUNT_INSTRUCTIONS_BUDGET_BYTES;
    int index = 0;
    for (KernelsList.Kernel kernel : list.kernels()) {
      index++;
      Path file = kernel.file();
      String name = traces.toAbsolutePath().normalize().relativize(file).toString();
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        throw new TraceProcessingException(
            "traces/kernelslist.g:"
                + kernel.lineNumber()
                + ": kernel file \""
                + kernel.line()
                + "\" is not in traces/; upload it, or remove its line from kernelslist.g");
      }
      requirePlain(traceFolder, file, false);
      if (index > MAX_HEADERS) {
        kernels.add(new TraceKernel(index, name, null, null, null, null));
        continue;
      }
      KernelHeader header = TraceReader.readHeader(file);
      Long instructions = null;
      long size = Files.size(file);
      if (size <= COUNT_INSTRUCTIONS_UP_TO_BYTES && size <= budget) {
        budget -= size;
        instructions = TraceReader.countInstructions(file);
      }
      kernels.add(
          new TraceKernel(
              index, name, header.name(), dims(header.grid()), dims(header.block()), instructions));
    }
    return kernels;
  }

  /** Refuses symbolic links (and, for folders, anything but a folder): nothing is read outside. */
  private static void requirePlain(Path traceFolder, Path path, boolean folder)
      throws TraceProcessingException {
    if (Files.isSymbolicLink(path)) {
      throw new TraceProcessingException(
          relative(traceFolder, path)
              + " is a symbolic link; Cascade reads only plain files inside the trace folder");
    }
    boolean ok =
        folder
            ? Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
            : Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
    if (!ok && Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      throw new TraceProcessingException(
          relative(traceFolder, path) + " is not a " + (folder ? "folder" : "plain file"));
    }
  }

  private static String reason(Path traceFolder, TraceFormatException e) {
    String file = relative(traceFolder, e.file());
    return (e.line() > 0 ? file + ":" + e.line() : file) + ": " + e.problem();
  }

  private static String relative(Path traceFolder, Path file) {
    Path base = traceFolder.toAbsolutePath().normalize();
    Path absolute = file.toAbsolutePath().normalize();
    return absolute.startsWith(base)
        ? base.relativize(absolute).toString().replace('\\', '/')
        : absolute.toString();
  }

  private static String dims(Dim3 dim) {
    return dim.x() + "," + dim.y() + "," + dim.z();
  }
}
