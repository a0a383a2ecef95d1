package dev.cascade.core.internal.run;

import java.nio.file.Path;

/**
 * The CUDA context a run entry simulates, of a trace that may have several (Accel-Sim 2.0's tracer
 * writes a list per context; the post-processor keeps the first as {@code kernelslist.g} and each
 * other as {@code kernelslist_ctx_0x<context>.g}).
 *
 * @param name the other context's name ({@code kernelslist_ctx_0x2}); null for the first, which a
 *     sim runs from the trace's own folder
 * @param list the context's processed list; null for the first when no list was looked up
 * @param kernelCount the kernels its list names
 */
record TraceContext(String name, Path list, int kernelCount) {

  /** The trace's first context (or only one), of {@code kernelCount} kernels. */
  static TraceContext first(int kernelCount) {
    return new TraceContext(null, null, kernelCount);
  }

  /** True for the first context: the sim runs the trace's own {@code kernelslist.g}. */
  boolean isFirst() {
    return name == null;
  }
}
