package dev.cascade.cli;

import dev.cascade.accelsim.trace.KernelsList;
import dev.cascade.accelsim.trace.TraceReader;
import dev.cascade.core.Trace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The {@code metadata.json} the CLI writes for a trace folder that has none (a bare Accel-Sim
 * folder): complete, with the architecture its kernels were traced on. {@code cascade run FOLDER}
 * and {@code cascade traces push FOLDER} both use it, so the same folder is labelled the same way
 * whichever way it comes in.
 */
final class GeneratedMetadata {

  private GeneratedMetadata() {}

  /**
   * The metadata for the trace whose {@code kernelslist.g} is in {@code tracesFolder}, one line of
   * JSON and a newline.
   */
  static String forTraces(Path tracesFolder) {
    return String.format(
        Locale.ROOT,
        "{\"status\": \"complete\", \"trace_gpu_arch\": \"%s\"}%n",
        archOf(tracesFolder));
  }

  /**
   * The architecture of the first kernel's binary version ({@code -binary version = 80} gives
   * {@code sm_80}); {@link Trace#DEFAULT_GPU_ARCH} when there is no {@code kernelslist.g} (a raw
   * trace, post-processed later), no kernel, or no version to read. The trace store says what is
   * wrong with such a trace; the default does here.
   */
  static String archOf(Path tracesFolder) {
    try {
      Path list = tracesFolder.resolve("kernelslist.g");
      if (Files.exists(list)) {
        List<KernelsList.Kernel> kernels = KernelsList.read(list).kernels();
        if (!kernels.isEmpty()) {
          int version = TraceReader.readHeader(kernels.getFirst().file()).binaryVersion();
          if (version > 0) {
            return "sm_" + version;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // the default below
    }
    return Trace.DEFAULT_GPU_ARCH;
  }
}
