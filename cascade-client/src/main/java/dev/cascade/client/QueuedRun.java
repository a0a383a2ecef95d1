package dev.cascade.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Run;
import dev.cascade.core.json.ApiJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A run as the server sees it now: the run, and why each launched sim that still waits in its
 * launcher's queue waits ({@code Slurm state PENDING (Priority)}). The reasons are known only to
 * the running server, so they are not part of {@link Run}.
 *
 * @param queuedReasons by sim id, only the sims that wait
 */
public record QueuedRun(Run run, Map<String, String> queuedReasons) {

  public QueuedRun {
    queuedReasons = Map.copyOf(queuedReasons);
  }

  /** Why the sim waits in its launcher's queue, while it does. */
  public Optional<String> queuedReason(String simId) {
    return Optional.ofNullable(queuedReasons.get(simId));
  }

  /** Reads {@code GET /api/runs/{id}}: the run and its sims' {@code queued_reason}. */
  static QueuedRun read(JsonNode node) {
    Run run = ApiJson.readRun(node);
    Map<String, String> reasons = new LinkedHashMap<>();
    for (JsonNode sim : node.path("sims")) {
      JsonNode reason = sim.path("queued_reason");
      if (reason.isTextual() && !reason.asText().isBlank()) {
        reasons.put(sim.path("id").asText(), reason.asText());
      }
    }
    return new QueuedRun(run, reasons);
  }
}
