package dev.cascade.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Run;
import dev.cascade.core.RunConfigProgress;
import dev.cascade.core.RunOptions;
import dev.cascade.core.RunPage;
import dev.cascade.core.RunState;
import dev.cascade.core.RunSummary;
import dev.cascade.core.RunSummaryPage;
import dev.cascade.core.SimState;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/runs}: a page of run summaries ({@link RunSummary}), each with its configs and
 * progress in a few numbers, and the cursor of the next page; {@link #readPage} gives back what
 * {@link #writePage} wrote.
 */
public final class RunListJson {

  private RunListJson() {}

  /** {@code {"runs": [...], "next_cursor": "..." | null}}, each run as {@link #writeSummary}. */
  public static Map<String, Object> writePage(RunPage page) {
    return writePage(RunSummaryPage.of(page));
  }

  /** The page as the server writes it. */
  public static Map<String, Object> writePage(RunSummaryPage page) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("runs", page.runs().stream().map(RunListJson::writeSummary).toList());
    body.put("next_cursor", page.nextCursor());
    return body;
  }

  /** A run's summary with its progress: what a runs list shows. */
  public static Map<String, Object> writeSummary(Run run) {
    return writeSummary(RunSummary.of(run));
  }

  /**
   * The run's fields as {@code GET /api/runs/{id}} writes them, but {@code sims}; then {@code
   * sims_by_state}, {@code kernels_done} and {@code kernels_total} over the latest attempts, and
   * per config ({@code configs}) its sims by state and kernels.
   */
  public static Map<String, Object> writeSummary(RunSummary run) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", run.id());
    fields.put("trace_id", run.traceId());
    fields.put("state", run.state().wireName());
    fields.put("created_at", ApiJson.text(run.createdAt()));
    fields.put("owner", run.owner());
    fields.put("priority", run.priority());
    fields.put("entries", run.entries().stream().map(ApiJson::writeRunEntry).toList());
    fields.put("sim_count", run.simCount());
    fields.put("sims_by_state", writeCounts(run.simsByState()));
    fields.put("kernels_done", run.kernelsDone());
    fields.put("kernels_total", run.kernelsTotal());
    fields.put("configs", run.configs().stream().map(RunListJson::writeConfig).toList());
    return fields;
  }

  /** The page {@link #writePage} wrote, parsed. */
  public static RunSummaryPage readPage(JsonNode node) {
    Fields page = Fields.of(node, "the run list");
    return new RunSummaryPage(
        page.list("runs", RunListJson::readSummary), page.textOrNull("next_cursor"));
  }

  /** One run of the page; a field a newer server adds is ignored. */
  public static RunSummary readSummary(JsonNode node) {
    Fields run = Fields.of(node, "a run summary");
    String owner = run.textOrNull("owner");
    return new RunSummary(
        run.text("id"),
        run.text("trace_id"),
        runState(run.text("state")),
        run.time("created_at"),
        owner == null ? RunOptions.DEFAULT_OWNER : owner,
        run.integer("priority", 0),
        run.list("entries", ApiJson::readRunEntry),
        run.integer("sim_count"),
        readCounts(run.numberMap("sims_by_state")),
        run.whole("kernels_done"),
        run.whole("kernels_total"),
        run.list("configs", RunListJson::readConfig));
  }

  private static Map<String, Object> writeConfig(RunConfigProgress config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("gpu_config", config.gpuConfig());
    fields.put("count", config.count());
    fields.put("sims_by_state", writeCounts(config.simsByState()));
    fields.put("kernels_done", config.kernelsDone());
    fields.put("kernels_total", config.kernelsTotal());
    return fields;
  }

  private static RunConfigProgress readConfig(JsonNode node) {
    Fields config = Fields.of(node, "a run's config progress");
    return new RunConfigProgress(
        config.text("gpu_config"),
        config.integer("count"),
        readCounts(config.numberMap("sims_by_state")),
        config.whole("kernels_done"),
        config.whole("kernels_total"));
  }

  private static Map<String, Integer> writeCounts(Map<SimState, Integer> counts) {
    Map<String, Integer> byName = new LinkedHashMap<>();
    counts.forEach((state, count) -> byName.put(state.wireName(), count));
    return byName;
  }

  private static Map<SimState, Integer> readCounts(Map<String, Number> byName) {
    Map<SimState, Integer> counts = new EnumMap<>(SimState.class);
    byName.forEach((name, count) -> counts.put(SimState.fromWireName(name), count.intValue()));
    return counts;
  }

  private static RunState runState(String name) {
    for (RunState state : RunState.values()) {
      if (state.wireName().equals(name)) {
        return state;
      }
    }
    throw new IllegalArgumentException(
        "a run summary's \"state\" must be a run state such as \"active\"; got \"" + name + "\"");
  }
}
