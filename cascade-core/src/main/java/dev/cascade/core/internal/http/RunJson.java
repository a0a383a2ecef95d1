package dev.cascade.core.internal.http;

import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import dev.cascade.core.internal.run.SimJson;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs and sims as the API shows them, in snake_case. */
final class RunJson {

  private RunJson() {}

  /** The whole run: its entries, derived state and every sim. */
  static Map<String, Object> run(Run run, Instant now) {
    Map<String, Object> fields = summaryFields(run);
    List<Map<String, Object>> sims = new ArrayList<>(run.sims().size());
    for (Sim sim : run.sims()) {
      sims.add(sim(sim, now));
    }
    fields.put("sims", sims);
    return fields;
  }

  /** The run without its sims, for lists: how many sims are in each state instead. */
  static Map<String, Object> summary(Run run) {
    Map<String, Object> fields = summaryFields(run);
    Map<String, Integer> byState = new LinkedHashMap<>();
    for (SimState state : SimState.values()) {
      int count = (int) run.sims().stream().filter(sim -> sim.state() == state).count();
      if (count > 0) {
        byState.put(state.wireName(), count);
      }
    }
    fields.put("sims_by_state", byState);
    return fields;
  }

  /**
   * A sim as {@link SimJson} writes it, plus {@code heartbeat_age_s}: seconds since its last
   * heartbeat at {@code now}, null before the first.
   */
  static Map<String, Object> sim(Sim sim, Instant now) {
    Map<String, Object> fields = SimJson.fields(sim);
    fields.put("heartbeat_age_s", ageSeconds(sim.lastHeartbeatAt(), now));
    return fields;
  }

  private static Map<String, Object> summaryFields(Run run) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", run.id());
    fields.put("trace_id", run.traceId());
    fields.put("state", run.state().wireName());
    fields.put("created_at", Json.text(run.createdAt()));
    List<Map<String, Object>> entries = new ArrayList<>();
    for (RunEntry entry : run.entries()) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("gpu_config", entry.gpuConfig());
      item.put("count", entry.count());
      entries.add(item);
    }
    fields.put("entries", entries);
    fields.put("sim_count", run.sims().size());
    return fields;
  }

  private static Double ageSeconds(Instant at, Instant now) {
    if (at == null) {
      return null;
    }
    long millis = Math.max(0, Duration.between(at, now).toMillis());
    return millis / 1000.0;
  }
}
