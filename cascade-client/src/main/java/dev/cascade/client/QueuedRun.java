package dev.cascade.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.Run;
import dev.cascade.core.RunAction;
import dev.cascade.core.json.ApiJson;
import dev.cascade.core.json.UsersJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run as the server sees it now: the run, why each launched sim that still waits in its
 * launcher's queue waits ({@code Slurm state PENDING (Priority)}), and who did what to it. The
 * reasons and the actions are known only to the server, so they are not part of {@link Run}.
 *
 * @param queuedReasons by sim id, only the sims that wait
 * @param actions who cancelled, retried or reran the run, and when, oldest first
 */
public record QueuedRun(Run run, Map<String, String> queuedReasons, List<RunAction> actions) {

  public QueuedRun {
    queuedReasons = Map.copyOf(queuedReasons);
    actions = List.copyOf(actions);
  }

  /** A run nobody has cancelled, retried or rerun. */
  public QueuedRun(Run run, Map<String, String> queuedReasons) {
    this(run, queuedReasons, List.of());
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
    return new QueuedRun(run, reasons, UsersJson.readActions(node));
  }
}
