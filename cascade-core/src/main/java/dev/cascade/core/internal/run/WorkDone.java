package dev.cascade.core.internal.run;

import dev.cascade.core.KernelWindow;
import dev.cascade.core.TraceKernel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How much of its trace a sim has done, by the trace's warp-level instruction counts ({@link
 * TraceKernel#instructions}, from its metadata) rather than by kernel count: once kernels 1..k
 * finished, their instructions are done and the rest are to do. Kernels differ in size by orders of
 * magnitude (a GEMM against a residual add), so a share of kernels says little of the time left.
 *
 * @param done warp instructions of the kernels finished
 * @param total warp instructions of every kernel the sim runs
 * @param kernelsDone kernels finished
 * @param kernelsTotal kernels the sim runs
 */
record WorkDone(long done, long total, int kernelsDone, int kernelsTotal) {

  /**
   * The work a sim has done: {@code kernelsDone} of the kernels it runs, which are the trace's
   * kernels in order, or those of its kernel window ({@code window}, null for the whole trace).
   * Empty when a count is missing or zero, or when the kernels the sim runs are not {@code
   * kernelsTotal} of the trace's (a sim of another CUDA context runs another list): then only
   * kernel counts can tell.
   */
  static Optional<WorkDone> of(
      List<TraceKernel> traceKernels, String window, int kernelsDone, int kernelsTotal) {
    if (traceKernels == null || traceKernels.isEmpty() || kernelsTotal <= 0) {
      return Optional.empty();
    }
    List<Integer> positions = new ArrayList<>();
    if (window == null) {
      for (int i = 1; i <= traceKernels.size(); i++) {
        positions.add(i);
      }
    } else {
      try {
        positions.addAll(KernelWindow.parse(window).positions());
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }
    if (positions.size() != kernelsTotal || kernelsDone < 0 || kernelsDone > kernelsTotal) {
      return Optional.empty();
    }
    long done = 0;
    long total = 0;
    for (int i = 0; i < positions.size(); i++) {
      int position = positions.get(i);
      if (position < 1 || position > traceKernels.size()) {
        return Optional.empty();
      }
      TraceKernel kernel = traceKernels.get(position - 1);
      if (kernel.index() != position || kernel.instructions() == null) {
        return Optional.empty();
      }
      total += kernel.instructions();
      if (i < kernelsDone) {
        done += kernel.instructions();
      }
    }
    return total > 0
        ? Optional.of(new WorkDone(done, total, kernelsDone, kernelsTotal))
        : Optional.empty();
  }

  /** Warp instructions still to do. */
  long left() {
    return total - done;
  }
}
