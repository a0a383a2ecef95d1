package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.ConfigCorrelation;
import dev.cascade.core.CorrelationFit;
import dev.cascade.core.HardwareCorrelation;
import dev.cascade.core.KernelMatch;
import dev.cascade.core.KernelNames;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP API's JSON for {@code GET /api/runs/{id}/correlation}: a run's simulated kernels against
 * the hardware's, as a {@code write}/{@code read} pair like {@link ResultsJson}'s.
 */
public final class CorrelationJson {

  private CorrelationJson() {}

  /** How the figures are computed, for people (see {@link CorrelationFit}). */
  public static final String FORMULAS =
      "As Accel-Sim's plot-correlation.py, over the paired kernels: correlation is Pearson's r of"
          + " measured and simulated; mean_abs_error_pct is the mean of |sim - hw| / hw * 100;"
          + " aggregate_error_pct is sum |sim - hw| / sum hw * 100; nrmse is"
          + " sqrt(mean((sim - hw)^2)) / mean(hw). Cycles are gpc__cycles_elapsed.max, time"
          + " gpu__time_duration.sum.";

  public static Map<String, Object> write(String runId, HardwareCorrelation correlation) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run_id", runId);
    body.put("trace_id", correlation.traceId());
    body.put("trace_arch", correlation.traceArch());
    body.put("source", correlation.source());
    body.put("measured_kernels", correlation.measuredKernels());
    body.put("formulas", FORMULAS);
    KernelNames.system()
        .readable(
            correlation.configs().stream()
                .flatMap(config -> config.kernels().stream().map(KernelMatch::name))
                .toList());
    body.put("configs", correlation.configs().stream().map(CorrelationJson::writeConfig).toList());
    body.put("notes", correlation.notes());
    return body;
  }

  public static HardwareCorrelation read(JsonNode node) {
    Fields body = Fields.of(node, "a run's hardware correlation");
    return new HardwareCorrelation(
        body.text("trace_id"),
        body.text("trace_arch"),
        body.textOrNull("source"),
        body.integer("measured_kernels"),
        body.list("configs", CorrelationJson::readConfig),
        body.texts("notes"));
  }

  private static Map<String, Object> writeConfig(ConfigCorrelation config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("kernels", config.kernels().stream().map(CorrelationJson::writeKernel).toList());
    fields.put("cycles", writeFit(config.cycles()));
    fields.put("time", writeFit(config.time()));
    fields.put("notes", config.notes());
    return fields;
  }

  private static ConfigCorrelation readConfig(JsonNode node) {
    Fields config = Fields.of(node, "a config's correlation");
    return new ConfigCorrelation(
        config.text("gpu_config"),
        config.list("kernels", CorrelationJson::readKernel),
        readFit(node.get("cycles")),
        readFit(node.get("time")),
        config.texts("notes"));
  }

  private static Map<String, Object> writeKernel(KernelMatch kernel) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", kernel.name());
    fields.put("readable_name", KernelNames.system().readable(kernel.name()));
    fields.put("instance", kernel.instance());
    fields.put("label", dev.cascade.core.KernelComparison.label(kernel.name(), kernel.instance()));
    fields.put("measured_name", kernel.measuredName());
    fields.put("measured_cycles", kernel.measuredCycles());
    fields.put("simulated_cycles", kernel.simulatedCycles());
    fields.put("cycles_error_pct", kernel.cyclesErrorPct());
    fields.put("measured_time_us", kernel.measuredTimeUs());
    fields.put("simulated_time_us", kernel.simulatedTimeUs());
    fields.put("time_error_pct", kernel.timeErrorPct());
    return fields;
  }

  private static KernelMatch readKernel(JsonNode node) {
    Fields kernel = Fields.of(node, "a kernel's correlation");
    return new KernelMatch(
        kernel.text("name"),
        kernel.integer("instance"),
        kernel.text("measured_name"),
        kernel.numberOrNull("measured_cycles"),
        kernel.number("simulated_cycles"),
        kernel.numberOrNull("measured_time_us"),
        kernel.numberOrNull("simulated_time_us"));
  }

  private static Map<String, Object> writeFit(CorrelationFit fit) {
    if (fit == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("n", fit.n());
    fields.put("correlation", fit.pearson());
    fields.put("mean_abs_error_pct", fit.meanAbsErrorPct());
    fields.put("aggregate_error_pct", fit.aggregateErrorPct());
    fields.put("nrmse", fit.nrmse());
    return fields;
  }

  private static CorrelationFit readFit(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    Fields fit = Fields.of(node, "a correlation fit");
    return new CorrelationFit(
        fit.integer("n"),
        fit.numberOrNull("correlation"),
        fit.number("mean_abs_error_pct"),
        fit.number("aggregate_error_pct"),
        fit.number("nrmse"));
  }

  /** The answer of {@code PUT /api/traces/{id}/hardware}. */
  public static Map<String, Object> writeHardwareStored(
      String traceId, String source, int kernels) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("trace_id", traceId);
    body.put("source", source);
    body.put("kernels", kernels);
    return body;
  }
}
