package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.ConfigResult;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelResult;
import dev.cascade.core.KernelWindow;
import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.Spread;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP API's JSON for what sims produced: a sim's kernels ({@code GET /api/sims/{id}/kernels},
 * {@code kernel} events) and a run's results ({@code GET /api/runs/{id}/results}), as {@code
 * write...}/{@code read...} pairs like {@link ApiJson}'s.
 */
public final class ResultsJson {

  private ResultsJson() {}

  // ------------------------------------------------------------------ kernels

  /**
   * One kernel of {@code GET /api/sims/{id}/kernels}: its headline numbers, {@code
   * simulated_time_us} ({@code cycles / clockMhz}, null when the clock is unknown) and {@code
   * stats}.
   */
  public static Map<String, Object> writeKernel(KernelResult kernel, Double clockMhz) {
    Map<String, Object> fields = kernelFields(kernel);
    fields.put("simulated_time_us", clockMhz == null ? null : kernel.cycles() / clockMhz);
    fields.put("stats", kernel.stats());
    return fields;
  }

  /**
   * The data of a {@code kernel} event: the headline numbers without {@code stats}; {@code
   * simulated_time_us} only when the clock is known.
   */
  public static Map<String, Object> writeKernelEvent(KernelResult kernel, Double clockMhz) {
    Map<String, Object> fields = kernelFields(kernel);
    if (clockMhz != null) {
      fields.put("simulated_time_us", kernel.cycles() / clockMhz);
    }
    return fields;
  }

  /** A kernel, from the kernels list or a {@code kernel} event (whose stats are empty). */
  public static KernelResult readKernel(JsonNode node) {
    Fields kernel = Fields.of(node, "a kernel");
    return new KernelResult(
        kernel.integer("position"),
        kernel.text("name"),
        kernel.whole("uid"),
        kernel.integer("instance"),
        kernel.whole("cycles"),
        kernel.whole("instructions"),
        kernel.number("ipc"),
        kernel.numberMap("stats"));
  }

  /**
   * {@code GET /api/sims/{id}/kernels}: the sim's config, replica, state and clock ({@code null}
   * when unknown), and its kernels in log order.
   */
  public static Map<String, Object> writeSimKernels(
      Sim sim, Double clockMhz, List<KernelResult> kernels) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("sim_id", sim.id());
    body.put("run_id", sim.runId());
    body.put("gpu_config", sim.gpuConfig());
    body.put("replica", sim.replica());
    body.put("state", sim.state().wireName());
    body.put("clock_mhz", clockMhz);
    // A kernel window's n-th kernel is the trace's kernel simulated_kernels[n-1].
    body.put(
        "simulated_kernels",
        sim.kernels() == null ? null : KernelWindow.parse(sim.kernels()).positions());
    body.put("kernels", kernels.stream().map(kernel -> writeKernel(kernel, clockMhz)).toList());
    return body;
  }

  /** The kernels of {@code GET /api/sims/{id}/kernels}. */
  public static List<KernelResult> readSimKernels(JsonNode node) {
    return Fields.of(node, "a sim's kernels").list("kernels", ResultsJson::readKernel);
  }

  private static Map<String, Object> kernelFields(KernelResult kernel) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("position", kernel.position());
    fields.put("name", kernel.name());
    fields.put("uid", kernel.uid());
    fields.put("instance", kernel.instance());
    fields.put("cycles", kernel.cycles());
    fields.put("instructions", kernel.instructions());
    fields.put("ipc", kernel.ipc());
    return fields;
  }

  // ------------------------------------------------------------------ results

  /** {@code GET /api/runs/{id}/results}: the run's id, trace and state, and a result per config. */
  public static Map<String, Object> writeResults(Run run, List<ConfigResult> configs) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run_id", run.id());
    body.put("trace_id", run.traceId());
    body.put("state", run.state().wireName());
    body.put("configs", configs.stream().map(ResultsJson::writeConfigResult).toList());
    return body;
  }

  /** The per-config results of {@code GET /api/runs/{id}/results}, in the run's entry order. */
  public static List<ConfigResult> readResults(JsonNode node) {
    return Fields.of(node, "a run's results").list("configs", ResultsJson::readConfigResult);
  }

  public static Map<String, Object> writeConfigResult(ConfigResult config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("arch", config.arch());
    fields.put("clock_mhz", config.clockMhz());
    fields.put("replicas", config.replicas());
    fields.put("succeeded", config.succeeded());
    fields.put(
        "kernels", config.kernels().stream().map(ResultsJson::writeKernelComparison).toList());
    fields.put("total", writeKernelComparison(config.total()));
    fields.put("notes", config.notes());
    return fields;
  }

  public static ConfigResult readConfigResult(JsonNode node) {
    Fields config = Fields.of(node, "a config's result");
    return new ConfigResult(
        config.text("gpu_config"),
        config.textOrNull("arch"),
        config.numberOrNull("clock_mhz"),
        config.integer("replicas"),
        config.integer("succeeded"),
        config.list("kernels", ResultsJson::readKernelComparison),
        readKernelComparison(config.object("total")),
        config.texts("notes"));
  }

  public static Map<String, Object> writeKernelComparison(KernelComparison kernel) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", kernel.name());
    fields.put("instance", kernel.instance());
    fields.put("n", kernel.n());
    fields.put("replicas", kernel.replicas());
    fields.put("cycles", writeSpread(kernel.cycles()));
    fields.put("instructions", writeSpread(kernel.instructions()));
    fields.put("ipc", writeSpread(kernel.ipc()));
    fields.put("simulated_time_us", writeSpread(kernel.simulatedTimeUs()));
    return fields;
  }

  public static KernelComparison readKernelComparison(JsonNode node) {
    Fields kernel = Fields.of(node, "a kernel's comparison");
    return new KernelComparison(
        kernel.text("name"),
        kernel.integer("instance"),
        kernel.integers("replicas"),
        readSpread(kernel.object("cycles")),
        readSpread(kernel.object("instructions")),
        readSpread(kernel.object("ipc")),
        readSpread(kernel.object("simulated_time_us")));
  }

  public static Map<String, Object> writeSpread(Spread spread) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("n", spread.n());
    fields.put("mean", spread.mean());
    fields.put("stdev", spread.stdev());
    fields.put("min", spread.min());
    fields.put("max", spread.max());
    fields.put("values", spread.values());
    return fields;
  }

  public static Spread readSpread(JsonNode node) {
    Fields spread = Fields.of(node, "a spread");
    return new Spread(
        spread.integer("n"),
        spread.number("mean"),
        spread.number("stdev"),
        spread.number("min"),
        spread.number("max"),
        spread.numbers("values"));
  }
}
