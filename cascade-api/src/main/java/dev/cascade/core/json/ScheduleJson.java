package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Run;
import dev.cascade.core.Sim;
import dev.cascade.core.SimSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A sim's place in the queue and estimated finish on the wire: {@code queue_position}, {@code eta},
 * {@code eta_s} and {@code eta_basis}, beside the sim's own fields in a run; {@link
 * ApiJson#writeRun(Run, Instant)} is a run without them.
 */
public final class ScheduleJson {

  private ScheduleJson() {}

  /**
   * {@link ApiJson#writeRun(Run, Instant)} with each unfinished sim's place in the queue and
   * estimated finish ({@code queue_position}, {@code eta}, {@code eta_s}, {@code eta_basis}; null
   * when none).
   */
  public static Map<String, Object> writeRun(
      Run run, Instant now, Map<String, SimSchedule> schedules) {
    Map<String, Object> fields = ApiJson.runFields(run);
    fields.put(
        "sims",
        run.sims().stream().map(sim -> writeSim(sim, now, schedules.get(sim.id()))).toList());
    return fields;
  }

  /**
   * {@link ApiJson#writeSim(Sim, Instant)} plus where it stands: {@code queue_position} (1 is next;
   * null once started), {@code eta} (the estimated finish), {@code eta_s} (seconds from {@code now}
   * to it) and {@code eta_basis} (what the estimate comes from); null when there is none.
   */
  public static Map<String, Object> writeSim(Sim sim, Instant now, SimSchedule schedule) {
    Map<String, Object> fields = ApiJson.writeSim(sim, now);
    fields.putAll(fields(schedule, now));
    return fields;
  }

  /** The four fields of {@code schedule} (all null without one), {@code eta_s} counted from now. */
  static Map<String, Object> fields(SimSchedule schedule, Instant now) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("queue_position", schedule == null ? null : schedule.queuePosition());
    Instant eta = schedule == null ? null : schedule.eta();
    fields.put("eta", ApiJson.text(eta));
    fields.put(
        "eta_s", eta == null ? null : Math.max(0, Duration.between(now, eta).toMillis()) / 1000.0);
    fields.put("eta_basis", schedule == null ? null : schedule.basis());
    return fields;
  }

  /** The schedules a run's sims carry, by sim id: those with a queue position or an estimate. */
  public static Map<String, SimSchedule> read(JsonNode run) {
    Map<String, SimSchedule> schedules = new LinkedHashMap<>();
    for (JsonNode node : run.path("sims")) {
      Fields sim = Fields.of(node, "a sim");
      Long position = sim.wholeOrNull("queue_position");
      Instant eta = sim.timeOrNull("eta");
      if (position != null || eta != null) {
        schedules.put(
            sim.text("id"),
            new SimSchedule(
                sim.text("id"),
                position == null ? null : position.intValue(),
                eta,
                sim.textOrNull("eta_basis")));
      }
    }
    return schedules;
  }
}
