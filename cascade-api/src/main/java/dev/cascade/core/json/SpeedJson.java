package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.RunSpeed;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/runs/{id}/speed} on the wire ({@link RunSpeed}): {@code {"run_id", "trace_id",
 * "configs": [{"gpu_config", "kernels", "sims", "median_kips", "simulators", "earlier":
 * [{"simulator", "sims", "median_kips", "min_kips", "max_kips", "ratio", "verdict"}]}]}}.
 */
public final class SpeedJson {

  private SpeedJson() {}

  public static Map<String, Object> write(RunSpeed speed) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run_id", speed.runId());
    body.put("trace_id", speed.traceId());
    body.put("configs", speed.configs().stream().map(SpeedJson::writeConfig).toList());
    return body;
  }

  private static Map<String, Object> writeConfig(RunSpeed.Config config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("kernels", config.kernels());
    fields.put("sims", config.sims());
    fields.put("median_kips", config.medianKips());
    fields.put("simulators", config.simulators());
    fields.put("earlier", config.earlier().stream().map(SpeedJson::writeBuild).toList());
    return fields;
  }

  private static Map<String, Object> writeBuild(RunSpeed.Build build) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("simulator", build.simulator());
    fields.put("sims", build.sims());
    fields.put("median_kips", build.medianKips());
    fields.put("min_kips", build.minKips());
    fields.put("max_kips", build.maxKips());
    fields.put("ratio", build.ratio());
    fields.put("verdict", build.verdict());
    return fields;
  }

  public static RunSpeed read(JsonNode node) {
    Fields speed = Fields.of(node, "a run's speed");
    return new RunSpeed(
        speed.text("run_id"), speed.text("trace_id"), speed.list("configs", SpeedJson::readConfig));
  }

  private static RunSpeed.Config readConfig(JsonNode node) {
    Fields config = Fields.of(node, "a config's speed");
    return new RunSpeed.Config(
        config.text("gpu_config"),
        config.textOrNull("kernels"),
        config.integer("sims"),
        config.numberOrNull("median_kips"),
        config.texts("simulators"),
        config.list("earlier", SpeedJson::readBuild));
  }

  private static RunSpeed.Build readBuild(JsonNode node) {
    Fields build = Fields.of(node, "a build's speed");
    return new RunSpeed.Build(
        build.text("simulator"),
        build.integer("sims"),
        build.number("median_kips"),
        build.number("min_kips"),
        build.number("max_kips"),
        build.numberOrNull("ratio"),
        build.textOrNull("verdict"));
  }
}
