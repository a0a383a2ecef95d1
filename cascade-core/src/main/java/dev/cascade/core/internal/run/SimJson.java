package dev.cascade.core.internal.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.core.Sim;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** A sim as clients see it, in snake_case JSON: what sim events carry and the API returns. */
public final class SimJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SimJson() {}

  public static Map<String, Object> fields(Sim sim) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", sim.id());
    fields.put("run_id", sim.runId());
    fields.put("gpu_config", sim.gpuConfig());
    fields.put("replica", sim.replica());
    fields.put("state", sim.state().wireName());
    fields.put("error", sim.error());
    fields.put("exit_code", sim.exitCode());
    fields.put("launcher", sim.launcherName());
    fields.put("launcher_ref", sim.launcherRef());
    fields.put("created_at", text(sim.createdAt()));
    fields.put("launched_at", text(sim.launchedAt()));
    fields.put("last_heartbeat_at", text(sim.lastHeartbeatAt()));
    fields.put("finished_at", text(sim.finishedAt()));
    fields.put("kernels_done", sim.progress().kernelsDone());
    fields.put("kernels_total", sim.progress().kernelsTotal());
    fields.put("current_kernel", sim.progress().currentKernel());
    fields.put("latest_metrics", sim.progress().latestMetrics());
    fields.put("log_outcome", sim.progress().logOutcome());
    return fields;
  }

  public static String json(Sim sim) {
    try {
      return JSON.writeValueAsString(fields(sim));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("sim " + sim.id() + " cannot be written as JSON", e);
    }
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
