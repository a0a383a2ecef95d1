package dev.cascade.core.internal.sampling;

import dev.cascade.accelsim.trace.TraceLayout;
import dev.cascade.agent.emulator.PrecomputedCounts;
import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A trace's sampling plan, made from what was kept when it was processed: the kernels' names,
 * shapes and warp instruction counts (the trace record), and the emulator's memory counts kept
 * beside {@code kernelslist.g} ({@link PrecomputedCounts}) where there are any. Deterministic, so
 * it is not stored: the same trace gives the same plan. The last plans made are kept in memory, by
 * trace, the trace's last change and the request, since a sampled run's results ask for its plan on
 * every read and making it reads the counts file.
 */
public final class TraceSampling {

  /** Plans kept: a sweep's variants and a run's repeated reads share one. */
  private static final int PLANS_KEPT = 64;

  private final Function<String, Optional<Trace>> traces;
  private final Function<String, Path> folders;
  private final Map<PlanKey, SamplingPlan> plans =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PlanKey, SamplingPlan> eldest) {
          return size() > PLANS_KEPT;
        }
      };

  /** A trace as it was when planned (a trace processed again has a later change) and a request. */
  private record PlanKey(String traceId, Instant changed, Sampling request) {}

  /**
   * @param traces finds a trace by id
   * @param folders a trace's folder by id; null when folders cannot be read (plans then use the
   *     trace record's features only)
   */
  public TraceSampling(Function<String, Optional<Trace>> traces, Function<String, Path> folders) {
    this.traces = Objects.requireNonNull(traces, "traces");
    this.folders = folders;
  }

  /**
   * The plan of trace {@code traceId}.
   *
   * @throws CascadeException {@code not_found} for no such trace, {@code conflict} when it is not
   *     ready, {@code invalid} (field {@code sampling.budget}) for a budget below its groups
   */
  public SamplingPlan plan(String traceId, Sampling request) {
    Trace trace =
        traces
            .apply(traceId)
            .orElseThrow(
                () ->
                    new CascadeException(
                        ErrorCode.NOT_FOUND,
                        "there is no trace \""
                            + traceId
                            + "\"; cascade traces list (or the web UI's Traces page) shows the"
                            + " ids",
                        "trace_id"));
    if (trace.state() != TraceState.READY) {
      throw new CascadeException(
          ErrorCode.CONFLICT,
          "trace \""
              + traceId
              + "\" is "
              + trace.state().wireName()
              + "; its kernels can be sampled once it is ready",
          "trace_id");
    }
    PlanKey key = new PlanKey(traceId, trace.updatedAt(), request);
    synchronized (plans) {
      SamplingPlan kept = plans.get(key);
      if (kept != null) {
        return kept;
      }
    }
    SamplingPlan plan;
    try {
      plan = SamplingPlanner.plan(traceId, features(trace), request);
    } catch (IllegalArgumentException e) {
      throw new CascadeException(ErrorCode.INVALID, e.getMessage(), "sampling.budget");
    }
    synchronized (plans) {
      plans.put(key, plan);
    }
    return plan;
  }

  /** The trace's kernels as features: the record's, completed by the emulator's counts. */
  List<KernelFeatures> features(Trace trace) {
    Map<Integer, PrecomputedCounts.KernelCounts> counts = Map.of();
    if (folders != null) {
      Path list =
          folders
              .apply(trace.id())
              .resolve(TraceLayout.TRACES_FOLDER)
              .resolve(TraceLayout.PROCESSED_LIST);
      counts = PrecomputedCounts.countsOf(list);
    }
    List<KernelFeatures> features = new ArrayList<>(trace.kernels().size());
    for (TraceKernel kernel : trace.kernels()) {
      PrecomputedCounts.KernelCounts counted = counts.get(kernel.index());
      Long instructions =
          kernel.instructions() != null
              ? kernel.instructions()
              : counted == null ? null : counted.warpInstructions();
      features.add(
          new KernelFeatures(
              kernel.index(),
              kernel.name(),
              kernel.grid(),
              kernel.block(),
              instructions,
              counted == null ? null : counted.globalLoads() + counted.globalStores(),
              counted == null ? null : counted.loadBytes() + counted.storeBytes()));
    }
    return features;
  }
}
