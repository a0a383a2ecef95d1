package dev.cascade.core.internal.trace;

import dev.cascade.core.TraceKernel;
import java.nio.file.Path;
import java.util.List;

/**
 * Turns an uploaded trace folder into a runnable one and reads its facts: runs the post-processor
 * when {@code traces/kernelslist.g} is missing and {@code traces/kernelslist} is there, then reads
 * the kernel lines of {@code traces/kernelslist.g} and, where cheap, each kernel's header. The one
 * place that calls the Accel-Sim formats library.
 */
interface TraceProcessor {

  /**
   * Processes the trace in {@code traceFolder} (the folder holding {@code metadata.json} and {@code
   * traces/}).
   *
   * @throws TraceProcessingException when the trace cannot be processed; its message is the reason
   *     the trace shows, naming the file (relative to the trace folder) and line
   */
  Facts process(Path traceFolder) throws TraceProcessingException;

  /**
   * What processing found.
   *
   * @param kernelCount the kernel lines of {@code kernelslist.g}
   * @param kernels each kernel line, with its header's facts where they could be read
   * @param postProcessed true when the post-processor wrote {@code kernelslist.g} just now
   */
  record Facts(int kernelCount, List<TraceKernel> kernels, boolean postProcessed) {
    public Facts {
      kernels = List.copyOf(kernels);
      if (kernelCount < 0) {
        throw new IllegalArgumentException("kernelCount cannot be negative: " + kernelCount);
      }
    }
  }

  /**
   * Processing failed; the message says where and why, e.g. {@code traces/kernelslist.g line 3:
   * ...}.
   */
  final class TraceProcessingException extends Exception {
    private static final long serialVersionUID = 1L;

    TraceProcessingException(String message) {
      super(message);
    }

    TraceProcessingException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
