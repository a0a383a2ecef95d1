package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.SampledEstimate;
import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kernel sampling's JSON: a run entry's {@code sampling}, a trace's plan ({@code GET
 * /api/traces/{id}/sampling}) and a sampled config's estimate in results, written and read here
 * only.
 */
public final class SamplingJson {

  private SamplingJson() {}

  /** {@code {"target_error", "budget", "method", "validate", "validation_run"}}. */
  public static Map<String, Object> writeSampling(Sampling sampling) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("target_error", sampling.targetError());
    fields.put("budget", sampling.budget());
    fields.put("method", sampling.method());
    fields.put("validate", sampling.validate());
    fields.put("validation_run", sampling.validationRun());
    return fields;
  }

  /** An entry's {@code sampling}: null or absent for none, every field optional. */
  public static Sampling readSampling(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    Fields fields = Fields.of(node, "sampling");
    Double target = fields.numberOrNull("target_error");
    Long budget = fields.wholeOrNull("budget");
    JsonNode validate = node.get("validate");
    return new Sampling(
        target == null ? Sampling.DEFAULT_TARGET_ERROR : target,
        budget == null ? null : Math.toIntExact(budget),
        fields.textOrNull("method"),
        validate != null && validate.asBoolean(false),
        fields.textOrNull("validation_run"));
  }

  /** {@code GET /api/traces/{id}/sampling}. */
  public static Map<String, Object> writePlan(SamplingPlan plan) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("trace_id", plan.traceId());
    fields.put("request", writeSampling(plan.request()));
    fields.put("summary", plan.summary());
    fields.put("kernels", plan.kernels());
    fields.put("simulated_kernels", plan.simulatedKernels());
    fields.put("warp_instructions", plan.warpInstructions());
    fields.put("simulated_warp_instructions", plan.simulatedWarpInstructions());
    fields.put("simulated_share", plan.simulatedShare());
    fields.put("predicted_error", plan.predictedError());
    fields.put("window", plan.window().text());
    fields.put("strata", plan.strata().stream().map(SamplingJson::writeStratum).toList());
    fields.put("notes", plan.notes());
    return fields;
  }

  private static Map<String, Object> writeStratum(SamplingPlan.Stratum stratum) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", stratum.name());
    fields.put("grid", stratum.grid());
    fields.put("block", stratum.block());
    fields.put("size", stratum.size());
    fields.put("members", SamplingPlan.ranges(stratum.members()));
    fields.put("representative", stratum.representative());
    fields.put("representative_instructions", stratum.representativeInstructions());
    fields.put("warp_instructions", stratum.warpInstructions());
    fields.put("weight", stratum.weight());
    fields.put("dispersion", stratum.dispersion());
    return fields;
  }

  /** A plan as {@link #writePlan} writes it. */
  public static SamplingPlan readPlan(JsonNode node) {
    Fields plan = Fields.of(node, "a sampling plan");
    return new SamplingPlan(
        plan.text("trace_id"),
        readSampling(plan.object("request")),
        plan.integer("kernels"),
        plan.whole("warp_instructions"),
        plan.list("strata", SamplingJson::readStratum),
        plan.number("predicted_error"),
        plan.texts("notes"));
  }

  private static SamplingPlan.Stratum readStratum(JsonNode node) {
    Fields stratum = Fields.of(node, "a stratum");
    return new SamplingPlan.Stratum(
        stratum.textOrNull("name"),
        stratum.textOrNull("grid"),
        stratum.textOrNull("block"),
        KernelWindow.parse(stratum.text("members")).positions(),
        stratum.integer("representative"),
        stratum.wholeOrNull("representative_instructions"),
        stratum.whole("warp_instructions"),
        stratum.number("weight"),
        stratum.number("dispersion"));
  }

  /** A sampled config's {@code sampling} in results; null for a config that was not sampled. */
  public static Map<String, Object> writeEstimate(SampledEstimate estimate) {
    if (estimate == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("summary", estimate.summary());
    fields.put("simulated_kernels", estimate.simulatedKernels());
    fields.put("total_kernels", estimate.totalKernels());
    fields.put("simulated_warp_instructions", estimate.simulatedWarpInstructions());
    fields.put("total_warp_instructions", estimate.totalWarpInstructions());
    fields.put("simulated_share", estimate.simulatedShare());
    fields.put("predicted_error", estimate.predictedError());
    Map<String, Object> measures = new LinkedHashMap<>();
    estimate
        .measures()
        .forEach(
            (id, interval) -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("estimate", finite(interval.estimate()));
              m.put("low", finite(interval.low()));
              m.put("high", finite(interval.high()));
              m.put("interval", finite(interval.relative()));
              m.put("replica_spread", finite(interval.replicaSpread()));
              measures.put(id, m);
            });
    fields.put("measures", measures);
    fields.put("simulated_seconds", estimate.simulatedSeconds());
    fields.put("full_trace_seconds_estimate", estimate.fullTraceSecondsEstimate());
    SampledEstimate.Validation validation = estimate.validation();
    if (validation == null) {
      fields.put("validation", null);
    } else {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("run_id", validation.runId());
      v.put("state", validation.state());
      v.put("full_cycles", validation.fullCycles());
      v.put("real_error", validation.realError());
      v.put("predicted_error", estimate.cyclesInterval());
      fields.put("validation", v);
    }
    return fields;
  }

  /** A sampled config's estimate as {@link #writeEstimate} writes it; null for null. */
  public static SampledEstimate readEstimate(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    Fields fields = Fields.of(node, "a sampled estimate");
    Map<String, SampledEstimate.Interval> measures = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : fields.object("measures").properties()) {
      Fields m = Fields.of(entry.getValue(), "a measure's estimate");
      measures.put(
          entry.getKey(),
          new SampledEstimate.Interval(
              orNaN(m.numberOrNull("estimate")),
              orNaN(m.numberOrNull("low")),
              orNaN(m.numberOrNull("high")),
              orNaN(m.numberOrNull("interval")),
              orNaN(m.numberOrNull("replica_spread"))));
    }
    JsonNode v = node.get("validation");
    SampledEstimate.Validation validation = null;
    if (v != null && !v.isNull()) {
      Fields vf = Fields.of(v, "a validation");
      validation =
          new SampledEstimate.Validation(
              vf.text("run_id"),
              vf.text("state"),
              vf.numberOrNull("full_cycles"),
              vf.numberOrNull("real_error"));
    }
    return new SampledEstimate(
        fields.integer("simulated_kernels"),
        fields.integer("total_kernels"),
        fields.whole("simulated_warp_instructions"),
        fields.whole("total_warp_instructions"),
        fields.number("predicted_error"),
        measures,
        fields.numberOrNull("simulated_seconds"),
        fields.numberOrNull("full_trace_seconds_estimate"),
        validation);
  }

  private static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }

  private static double orNaN(Double value) {
    return value == null ? Double.NaN : value;
  }
}
