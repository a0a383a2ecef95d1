package dev.cascade.core.internal.run;

import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.spi.LaunchException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The trace folder a sim with a kernel window runs: {@code traces/kernelslist.g} holding only the
 * window's kernels, each with the memcpy lines that come before it in the trace, and links to the
 * trace's own kernel files (a simulator resolves the listed names against the list's folder, so the
 * files must appear beside it). Written per sim under {@code work/windows/}; the sim gets it as
 * {@code CASCADE_TRACE_DIR}, so Accel-Sim and the emulator alike read the filtered list.
 */
final class KernelWindowTrace {

  private KernelWindowTrace() {}

  /** Writes (again, when it exists) the windowed trace of sim {@code simId}; returns its folder. */
  static Path write(Path dataDir, String simId, Path traceDir, KernelWindow window)
      throws LaunchException {
    Path folder = dataDir.resolve("work").resolve("windows").resolve(simId);
    try {
      Path list =
          TraceLayout.findProcessedList(traceDir)
              .orElseThrow(
                  () -> new IOException("no " + TraceLayout.PROCESSED_LIST + " in " + traceDir));
      Path traces = folder.resolve(TraceLayout.TRACES_FOLDER);
      Files.createDirectories(traces);
      List<String> lines = filter(KernelsList.read(list), Set.copyOf(window.positions()));
      for (String line : lines) {
        if (!line.startsWith("Memcpy")) {
          link(traces.resolve(line), list.getParent().resolve(line).toAbsolutePath());
        }
      }
      Path metadata = traceDir.resolve("metadata.json");
      if (Files.isRegularFile(metadata)) {
        link(folder.resolve("metadata.json"), metadata.toAbsolutePath()); // the trace's facts
      }
      Path temporary = traces.resolve(TraceLayout.PROCESSED_LIST + ".tmp");
      Files.writeString(temporary, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
      Files.move(
          temporary,
          traces.resolve(TraceLayout.PROCESSED_LIST),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      return folder;
    } catch (IOException | RuntimeException e) {
      throw new LaunchException(
          "cannot write the kernel window \""
              + window.text()
              + "\" of the trace in "
              + traceDir
              + " to "
              + folder
              + ": "
              + e.getMessage(),
          false,
          e);
    }
  }

  /**
   * The lines of {@code list} a window of {@code positions} keeps: each kept kernel (counted from 1
   * among kernel lines) with the memcpy lines right before it; the memcpys of a dropped kernel and
   * those after the last kernel are dropped with it.
   */
  static List<String> filter(KernelsList list, Set<Integer> positions) {
    List<String> kept = new ArrayList<>();
    List<String> memcpys = new ArrayList<>();
    int position = 0;
    for (KernelsList.Entry entry : list.entries()) {
      switch (entry) {
        case KernelsList.Memcpy memcpy -> memcpys.add(memcpy.line());
        case KernelsList.Kernel kernel -> {
          position++;
          if (positions.contains(position)) {
            kept.addAll(memcpys);
            kept.add(kernel.line());
          }
          memcpys.clear();
        }
      }
    }
    return kept;
  }

  private static void link(Path link, Path target) throws IOException {
    Files.createDirectories(link.getParent());
    if (Files.isSymbolicLink(link) || Files.exists(link)) {
      Files.delete(link);
    }
    Files.createSymbolicLink(link, target);
  }
}
