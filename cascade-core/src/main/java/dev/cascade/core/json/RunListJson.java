package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunPage;
import dev.cascade.core.Sim;
import dev.cascade.core.SimState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/runs}: a page of run summaries, each with its configs and progress in a few
 * numbers, and the cursor of the next page.
 */
public final class RunListJson {

  private RunListJson() {}

  /** The ids of a page and its next cursor, as a client reads them back. */
  public record PageIds(List<String> ids, String nextCursor) {}

  /**
   * {@code {"runs": [...], "next_cursor": "..." | null}}: each run as {@link
   * ApiJson#writeRunSummary}, with {@code kernels_done} and {@code kernels_total} over its sims'
   * latest attempts, and per config ({@code configs}) its sims by state and kernels.
   */
  public static Map<String, Object> writePage(RunPage page) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("runs", page.runs().stream().map(RunListJson::writeSummary).toList());
    body.put("next_cursor", page.nextCursor());
    return body;
  }

  /** A run's summary with its progress: what a runs list shows. */
  public static Map<String, Object> writeSummary(Run run) {
    Map<String, Object> fields = ApiJson.writeRunSummary(run);
    List<Sim> latest = run.latestAttempts();
    fields.put("kernels_done", kernelsDone(latest));
    fields.put("kernels_total", kernelsTotal(latest));
    fields.put(
        "configs",
        run.entries().stream()
            .map(
                entry ->
                    config(
                        entry,
                        latest.stream()
                            .filter(sim -> sim.gpuConfig().equals(entry.gpuConfig()))
                            .toList()))
            .toList());
    return fields;
  }

  /** The page's run ids, in order, and its {@code next_cursor}. */
  public static PageIds readPageIds(JsonNode node) {
    Fields page = Fields.of(node, "the run list");
    return new PageIds(
        page.list("runs", run -> Fields.of(run, "a run summary").text("id")),
        page.textOrNull("next_cursor"));
  }

  private static Map<String, Object> config(RunEntry entry, List<Sim> sims) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", entry.gpuConfig());
    fields.put("count", entry.count());
    Map<String, Integer> byState = new LinkedHashMap<>();
    for (SimState state : SimState.values()) {
      int count = (int) sims.stream().filter(sim -> sim.state() == state).count();
      if (count > 0) {
        byState.put(state.wireName(), count);
      }
    }
    fields.put("sims_by_state", byState);
    fields.put("kernels_done", kernelsDone(sims));
    fields.put("kernels_total", kernelsTotal(sims));
    return fields;
  }

  private static long kernelsDone(List<Sim> sims) {
    return sims.stream().mapToLong(sim -> sim.progress().kernelsDone()).sum();
  }

  private static long kernelsTotal(List<Sim> sims) {
    return sims.stream().mapToLong(sim -> sim.progress().kernelsTotal()).sum();
  }
}
