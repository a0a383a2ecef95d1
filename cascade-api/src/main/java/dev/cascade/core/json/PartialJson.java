package dev.cascade.core.json;

import dev.cascade.core.PartialResults;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code partial} flag and {@code progress} object of a run's results ({@code GET
 * /api/runs/{id}/results}): whether more kernels are to come, and from which sims.
 */
public final class PartialJson {

  private PartialJson() {}

  /**
   * {@code {sims, sims_finished, kernels_done, kernels_total, summary, to_come: [{sim_id,
   * gpu_config, replica, state, kernels_done, kernels_total}]}}.
   */
  public static Map<String, Object> write(PartialResults partial) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("sims", partial.sims());
    fields.put("sims_finished", partial.simsFinished());
    fields.put("kernels_done", partial.kernelsDone());
    fields.put("kernels_total", partial.kernelsTotal());
    fields.put("summary", partial.summary());
    List<Map<String, Object>> toCome =
        partial.toCome().stream().map(PartialJson::writeSimToCome).toList();
    fields.put("to_come", toCome);
    return fields;
  }

  private static Map<String, Object> writeSimToCome(PartialResults.SimToCome sim) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("sim_id", sim.simId());
    fields.put("gpu_config", sim.gpuConfig());
    fields.put("replica", sim.replica());
    fields.put("state", sim.state().wireName());
    fields.put("kernels_done", sim.kernelsDone());
    fields.put("kernels_total", sim.kernelsTotal());
    return fields;
  }
}
