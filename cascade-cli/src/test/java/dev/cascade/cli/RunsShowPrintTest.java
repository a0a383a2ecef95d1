package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.client.QueuedRun;
import dev.cascade.core.Run;
import dev.cascade.core.RunSpeed;
import dev.cascade.core.json.ApiJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RunsShowPrintTest {

  /** Two Slurm sims: one runs kernel_2, one is still queued. */
  private static final String RUN_JSON =
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

  private static final String QUEUED_SIM = "s_01M8MS26FMS4T2WAXQZYNHRTTM";

  @Test
  void print_showsWhyAQueuedSimWaitsWhereTheKernelWouldBe() throws Exception {
    Run run = ApiJson.readRun(new ObjectMapper().readTree(RUN_JSON));
    QueuedRun queued = new QueuedRun(run, Map.of(QUEUED_SIM, "Slurm state PENDING (Priority)"));

    StringWriter text = new StringWriter();
    RunsShowCommand.print(new PrintWriter(text), queued, Instant.parse("2026-11-29T23:01:21Z"));

    assertThat(text.toString())
        .containsPattern("launching\\s+0/3\\s+queued: Slurm state PENDING \\(Priority\\)\\s+")
        .containsPattern("running\\s+1/3\\s+kernel_2\\s+");
  }

  @Test
  void print_showsTheEntrysContextAndWhichAccelSimMadeTheLogs() throws Exception {
    String json =
        RUN_JSON
            .replace("\"count\": 2}", "\"count\": 2, \"context\": \"kernelslist_ctx_0x2\"}")
            .replace(
                "\"latest_metrics\": null, \"log_outcome\": null, \"heartbeat_age_s\": 1.42,",
                "\"latest_metrics\": null, \"log_outcome\": null, \"heartbeat_age_s\": 1.42,"
                    + " \"provenance\": {\"accelsim_build\": \"accelsim-commit-0123abc\","
                    + " \"gpgpusim_build\": \"gpgpu-sim_git-commit-667834cf\","
                    + " \"gpgpusim_version\": \"4.2.0\"},");
    Run run = ApiJson.readRun(new ObjectMapper().readTree(json));

    StringWriter text = new StringWriter();
    RunsShowCommand.print(
        new PrintWriter(text), new QueuedRun(run, Map.of()), Instant.parse("2026-11-29T23:01:21Z"));

    assertThat(text.toString())
        .contains("SM90_H100 x2 (CUDA context kernelslist_ctx_0x2)")
        .containsPattern(
            "simulator\\s+Accel-Sim \\[build accelsim-commit-0123abc\\], GPGPU-Sim 4.2.0"
                + " \\[build gpgpu-sim_git-commit-667834cf\\]");
  }

  @Test
  void printSpeed_givesEachConfigsMedianAndEachEarlierBuildWithTheRatioAndVerdict() {
    String slow = "Accel-Sim [build accelsim-commit-slow]";
    String fast = "Accel-Sim [build accelsim-commit-fast]";
    RunSpeed speed =
        new RunSpeed(
            "r_1",
            "demo",
            List.of(
                new RunSpeed.Config(
                    "SM90_H100",
                    null,
                    2,
                    210.0,
                    List.of(slow),
                    List.of(
                        new RunSpeed.Build(fast, 3, 300.0, 290.0, 310.0, 0.7, "slower"),
                        new RunSpeed.Build(
                            slow, 1, 212.0, 212.0, 212.0, 210.0 / 212.0, "within spread"))),
                new RunSpeed.Config("SM90_H200", "2-3", 0, null, List.of(), List.of())));

    StringWriter text = new StringWriter();
    RunsShowCommand.printSpeed(new PrintWriter(text), speed);

    assertThat(text.toString())
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "",
                "Simulation speed (KIPS: thousands of simulated thread instructions per wall"
                    + " second, median over succeeded sims):",
                "  SM90_H100  210.0 KIPS (2 sims) on " + slow,
                "    0.70x of 300.0 KIPS (290.0-310.0, 3 earlier sims) on " + fast + ": slower",
                "    0.99x of 212.0 KIPS (212.0-212.0, 1 earlier sim) on "
                    + slow
                    + ": within spread",
                "  SM90_H200 (kernels 2-3)  no succeeded sim with a speed yet",
                ""));
  }

  @Test
  void printSpeed_withNoSpeedAnywhere_printsNothing() {
    RunSpeed speed =
        new RunSpeed(
            "r_1",
            "demo",
            List.of(new RunSpeed.Config("SM90_H100", null, 0, null, List.of(), List.of())));

    StringWriter text = new StringWriter();
    RunsShowCommand.printSpeed(new PrintWriter(text), speed);

    assertThat(text.toString()).isEmpty();
  }
}
