package dev.cascade.core.internal.http;

import dev.cascade.core.internal.run.QueuedSims;
import java.util.List;
import java.util.Map;

/**
 * Adds {@code queued_reason} to the sims of a run's JSON: why a launched sim still waits in its
 * launcher's queue ({@code Slurm state PENDING (Priority)}), null when it does not. Known only to
 * the running app, so it is in run responses and not in stored events.
 */
final class QueuedReasons {

  private QueuedReasons() {}

  /**
   * Adds the field to each sim of {@code run}, in place: the run's JSON was just written for this
   * response, so copying every sim (hundreds of maps) would buy nothing.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> add(Map<String, Object> run, QueuedSims queued) {
    Object sims = run.get("sims");
    if (!(sims instanceof List<?> list)) {
      return run;
    }
    for (Object item : list) {
      Map<String, Object> sim = (Map<String, Object>) item;
      sim.put("queued_reason", queued.reason(String.valueOf(sim.get("id"))).orElse(null));
    }
    return run;
  }
}
