package dev.cascade.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

final class QueuedRunTest {

  /** A run of two Slurm sims as {@code GET /api/runs/{id}} answers: one runs, one is queued. */
  static final String RUN_JSON =
      """
      {"id": "r_01M8MS25K422QTVDDWQV5CEFPR", "trace_id": "demo", "state": "active",
       "created_at": "2026-11-29T23:01:12.512Z",
       "entries": [{"gpu_config": "SM90_H100", "count": 2}],
       "sim_count": 2,
       "sims": [
         {"id": "s_01M8MS26FMS4T2WAXQZYNHRTTK", "run_id": "r_01M8MS25K422QTVDDWQV5CEFPR",
          "gpu_config": "SM90_H100", "replica": 0, "state": "running", "error": null, "exit_code": null,
          "launcher": "slurm", "launcher_ref": "41_0",
          "created_at": "2026-11-29T23:01:12.512Z", "launched_at": "2026-11-29T23:01:12.530Z",
          "last_heartbeat_at": "2026-11-29T23:01:20.101Z", "finished_at": null,
          "kernels_done": 1, "kernels_total": 3, "current_kernel": "kernel_2",
          "latest_metrics": null, "log_outcome": null, "heartbeat_age_s": 1.42, "queued_reason": null},
         {"id": "s_01M8MS26FMS4T2WAXQZYNHRTTM", "run_id": "r_01M8MS25K422QTVDDWQV5CEFPR",
          "gpu_config": "SM90_H100", "replica": 1, "state": "launching", "error": null, "exit_code": null,
          "launcher": "slurm", "launcher_ref": "41_1",
          "created_at": "2026-11-29T23:01:12.512Z", "launched_at": "2026-11-29T23:01:12.530Z",
          "last_heartbeat_at": null, "finished_at": null,
          "kernels_done": 0, "kernels_total": 3, "current_kernel": null,
          "latest_metrics": null, "log_outcome": null, "heartbeat_age_s": null,
          "queued_reason": "Slurm state PENDING (Priority)"}
       ]}
      """;

  @Test
  void read_keepsTheQueuedReasonOfEachSimThatWaitsOnly() throws Exception {
    QueuedRun queued = QueuedRun.read(new ObjectMapper().readTree(RUN_JSON));

    assertThat(queued.run().sims()).hasSize(2);
    assertThat(queued.queuedReason("s_01M8MS26FMS4T2WAXQZYNHRTTM"))
        .contains("Slurm state PENDING (Priority)");
    assertThat(queued.queuedReason("s_01M8MS26FMS4T2WAXQZYNHRTTK")).isEmpty();
    assertThat(queued.queuedReasons()).hasSize(1);
  }
}
