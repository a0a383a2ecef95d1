package dev.cascade.core.internal.http;

import dev.cascade.core.internal.run.QueuedSims;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds {@code queued_reason} to the sims of a run's JSON: why a launched sim still waits in its
 * launcher's queue ({@code Slurm state PENDING (Priority)}), null when it does not. Known only to
 * the running app, so it is in run responses and not in stored events.
 */
final class QueuedReasons {

  private QueuedReasons() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> add(Map<String, Object> run, QueuedSims queued) {
    Object sims = run.get("sims");
    if (!(sims instanceof List<?> list)) {
      return run;
    }
    List<Map<String, Object>> withReasons = new ArrayList<>(list.size());
    for (Object item : list) {
      Map<String, Object> sim = new LinkedHashMap<>((Map<String, Object>) item);
      sim.put("queued_reason", queued.reason(String.valueOf(sim.get("id"))).orElse(null));
      withReasons.add(sim);
    }
    Map<String, Object> copy = new LinkedHashMap<>(run);
    copy.put("sims", withReasons);
    return copy;
  }
}
