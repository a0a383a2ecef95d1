package dev.cascade.core.internal.run;

import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The trace folder the sims of a run entry that chose another CUDA context run: {@code
 * traces/kernelslist.g} holding that context's list ({@code kernelslist_ctx_0x2.g}), and links to
 * the trace's kernel files it names (a simulator resolves them against the list's folder). Written
 * per run and context under {@code work/contexts/}; the sims get it as {@code CASCADE_TRACE_DIR},
 * so Accel-Sim ({@code -kernelslist $CASCADE_TRACE_DIR/traces/kernelslist.g}) and the emulator
 * alike simulate that context's list, and a kernel window is cut from it.
 */
final class ContextTrace {

  private ContextTrace() {}

  /**
   * The folder the sims of {@code context} run: {@code traceDir} itself for the first context, else
   * the context's folder of run {@code runId}, written (again, when it exists) now.
   */
  static Path folder(Path dataDir, String runId, Path traceDir, TraceContext context)
      throws IOException {
    if (context.isFirst()) {
      return traceDir;
    }
    Path folder =
        dataDir.resolve("work").resolve("contexts").resolve(runId).resolve(context.name());
    Path traces = folder.resolve(TraceLayout.TRACES_FOLDER);
    Files.createDirectories(traces);
    KernelsList list = KernelsList.read(context.list());
    for (KernelsList.Kernel kernel : list.kernels()) {
      Path relative = list.folder().toAbsolutePath().relativize(kernel.file().toAbsolutePath());
      link(traces.resolve(relative.toString()), kernel.file().toAbsolutePath());
    }
    Path metadata = traceDir.resolve("metadata.json");
    if (Files.isRegularFile(metadata)) {
      link(folder.resolve("metadata.json"), metadata.toAbsolutePath()); // the trace's facts
    }
    Path temporary = traces.resolve(TraceLayout.PROCESSED_LIST + ".tmp");
    Files.copy(context.list(), temporary, StandardCopyOption.REPLACE_EXISTING);
    Files.move(
        temporary,
        traces.resolve(TraceLayout.PROCESSED_LIST),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    return folder;
  }

  /** Links {@code link} to {@code target}, leaving a link that already points there as it is. */
  private static void link(Path link, Path target) throws IOException {
    Files.createDirectories(link.getParent());
    if (Files.isSymbolicLink(link)) {
      if (Files.readSymbolicLink(link).equals(target)) {
        return; // a sim of an earlier attempt may be reading through it
      }
      Files.delete(link);
    } else if (Files.exists(link)) {
      Files.delete(link);
    }
    Files.createSymbolicLink(link, target);
  }
}
