package dev.cascade.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One profiler run: Accel-Sim traces of every kernel the traced layers launched, plus the
 * profiler's {@code metadata.json}, kept as plain files under the traces folder.
 *
 * @param id the profiler's run name; see {@link #requireValidId}
 * @param reason why the trace failed; null unless {@code state} is {@code failed}
 * @param traceGpuArch the architecture it was captured on ({@code sm_90} when metadata says none)
 * @param suggestedSimConfig the GPU config the profiler suggests; null when it suggests none
 * @param modelName the traced model when metadata names it; null otherwise
 * @param tracedLayers the traced layers when metadata lists them; empty otherwise
 * @param kernelCount the kernel lines of {@code kernelslist.g}; 0 before processing
 * @param sizeBytes size on disk of everything under the trace's folder
 * @param sample sample traces can be browsed but never run
 */
public record Trace(
    String id,
    TraceState state,
    String reason,
    String traceGpuArch,
    String suggestedSimConfig,
    String modelName,
    List<String> tracedLayers,
    int kernelCount,
    List<TraceKernel> kernels,
    long sizeBytes,
    boolean sample,
    Instant createdAt,
    Instant updatedAt) {

  /** The architecture a trace is assumed to come from when its metadata does not say. */
  public static final String DEFAULT_GPU_ARCH = "sm_90";

  private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  public Trace {
    requireValidId(id);
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(traceGpuArch, "traceGpuArch");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    tracedLayers = List.copyOf(tracedLayers);
    kernels = List.copyOf(kernels);
    if (kernelCount < 0 || sizeBytes < 0) {
      throw new IllegalArgumentException(
          "trace " + id + ": kernelCount and sizeBytes cannot be negative");
    }
  }

  /** True when a trace id is safe: 1 to 200 of {@code A-Za-z0-9._-}, and not "." or "..". */
  public static boolean isValidId(String id) {
    return id != null && VALID_ID.matcher(id).matches() && !id.equals(".") && !id.equals("..");
  }

  /** Returns the id when valid; otherwise an exception that names the value and the rule. */
  public static String requireValidId(String id) {
    if (!isValidId(id)) {
      throw new IllegalArgumentException(invalidIdMessage(id));
    }
    return id;
  }

  /**
   * The one error for a value that is not a trace id, whichever way it came in (API, CLI, Java):
   * {@code invalid}, field {@code trace_id}, naming the value and the rule.
   */
  public static CascadeException invalidId(String id) {
    return new CascadeException(ErrorCode.INVALID, invalidIdMessage(id), "trace_id");
  }

  private static String invalidIdMessage(String id) {
    return "trace id \""
        + id
        + "\" is not valid: use 1 to 200 characters of A-Z, a-z, 0-9, '.', '_' or '-',"
        + " and not \".\" or \"..\"";
  }

  /** True when runs can launch on this trace. */
  public boolean runnable() {
    return state == TraceState.READY && !sample;
  }
}
