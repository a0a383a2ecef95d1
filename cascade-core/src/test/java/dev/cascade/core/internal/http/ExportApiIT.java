package dev.cascade.core.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cascade.core.internal.http.ApiServer.Response;
import dev.cascade.core.testkit.Rfc4180;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/runs/{id}/results/sims.csv} and {@code .../get_stats.csv}: two sims that print
 * their logs through the sim endpoints, then the CSVs read back by a strict RFC 4180 reader (and by
 * Python's {@code csv} module when there is a python3) and checked against the API's JSON.
 */
final class ExportApiIT {

  private static final String COMMA_KERNEL = "k_b<int, 2>";

  @TempDir Path dataDir;
  private ApiServer server;
  private String runId;
  private List<String> simIds;

  @BeforeEach
  void startWithTwoFinishedSims() throws IOException {
    server = ApiServer.start(dataDir);
    JsonNode run = server.createRun(3);
    runId = run.get("id").asText();
    simIds = ApiServer.simIds(run);
    await().atMost(ApiServer.WAIT).until(() -> server.launcher.launches.size() == 3);
    finish(simIds.get(0), log(100, 250, 0.3720, true) + log(40, 60, 1.5, false));
    finish(simIds.get(1), log(120, 250, 0.4, true) + log(44, 66, 2.0, false));
    server.heartbeat(simIds.get(2), "{\"state\": \"running\", \"chunks\": 0}"); // nothing yet
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void simsCsv_hasARowPerSimAndKernelWithTheValuesOfTheApisJson() {
    Response reply = server.get("/api/runs/" + runId + "/results/sims.csv");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/csv");
    List<List<String>> records = Rfc4180.parse(reply.body());
    List<String> header = records.getFirst();
    assertThat(header).startsWith("run_id", "trace_id", "gpu_config", "replica", "attempt");
    assertThat(header).contains("gpu_ipc", "L2_cache_bank[0].Access", "total dram reads");
    List<Map<String, String>> rows = new ArrayList<>();
    for (List<String> record : records.subList(1, records.size())) {
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.size(); i++) {
        row.put(header.get(i), record.get(i));
      }
      rows.add(row);
    }
    assertThat(rows).hasSize(4); // the third sim has finished no kernel
    for (int s = 0; s < 2; s++) {
      JsonNode kernels =
          server.get("/api/sims/" + simIds.get(s) + "/kernels").json().get("kernels");
      for (int k = 0; k < 2; k++) {
        Map<String, String> row = rows.get(s * 2 + k);
        JsonNode kernel = kernels.get(k);
        assertThat(row.get("sim_id")).isEqualTo(simIds.get(s));
        assertThat(row.get("run_id")).isEqualTo(runId);
        assertThat(row.get("gpu_config")).isEqualTo("SM90_H100");
        assertThat(row.get("replica")).isEqualTo(Integer.toString(s));
        assertThat(row.get("sim_state")).isEqualTo("succeeded");
        assertThat(row.get("kernel")).isEqualTo(kernel.get("name").asText());
        assertThat(row.get("kernel_position")).isEqualTo(Integer.toString(k));
        assertThat(row.get("kernel_number")).isEqualTo(Integer.toString(k + 1));
        assertThat(Long.parseLong(row.get("cycles"))).isEqualTo(kernel.get("cycles").asLong());
        assertThat(Double.parseDouble(row.get("ipc"))).isEqualTo(kernel.get("ipc").asDouble());
        assertThat(row.get("accel_sim_build")).isEqualTo("accelsim-commit-abc");
        for (String stat : header.subList(23, header.size())) {
          JsonNode value = kernel.get("stats").get(stat);
          if (value == null) {
            assertThat(row.get(stat)).as(stat).isEmpty();
          } else {
            assertThat(Double.parseDouble(row.get(stat))).as(stat).isEqualTo(value.asDouble());
          }
        }
      }
    }
    assertThat(rows.get(1).get("kernel")).isEqualTo(COMMA_KERNEL);
    assertThat(rows.get(1).get("total dram reads")).isEmpty(); // only the first block has it
    JsonNode total =
        server.get("/api/runs/" + runId + "/results").json().get("configs").get(0).get("total");
    long sum = rows.stream().mapToLong(row -> Long.parseLong(row.get("cycles"))).sum();
    assertThat(sum).isEqualTo(total.get("cycles").get("mean").asLong() * total.get("n").asLong());
  }

  @Test
  void simsCsv_isReadByPythonsCsvModuleWithEveryStatisticANumber() throws Exception {
    Assumptions.assumeTrue(
        pythonPresent(), "needs python3 on the PATH to read the CSV with its csv module");
    Path csv =
        Files.writeString(
            dataDir.resolve("sims.csv"),
            server.get("/api/runs/" + runId + "/results/sims.csv").body());
    String script =
        "import csv,sys\n"
            + "rows=list(csv.DictReader(open(sys.argv[1],newline='')))\n"
            + "ids=set(['run_id','trace_id','gpu_config','sim_id','sim_state','kernel_window',"
            + "'kernel','kernel_readable','trace_hash','config_hash','simulator',"
            + "'accel_sim_build','gpgpu_sim_build','reused_from'])\n"
            + "n=0\n"
            + "for r in rows:\n"
            + "  for k,v in r.items():\n"
            + "    if k not in ids and v!='':\n"
            + "      float(v); n+=1\n"
            + "print(len(rows), n, rows[1]['kernel'])\n";
    Process python =
        new ProcessBuilder("python3", "-c", script, csv.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(python.waitFor(30, TimeUnit.SECONDS)).isTrue();

    assertThat(python.exitValue()).as(out).isZero();
    assertThat(out.strip()).startsWith("4 ").endsWith(" " + COMMA_KERNEL);
  }

  @Test
  void getStatsCsv_laysOutTheSucceededSimsAsGetStatsDoes() {
    Response plain = server.get("/api/runs/" + runId + "/results/get_stats.csv");
    Response rows =
        server.get("/api/runs/" + runId + "/results/get_stats.csv?configs_as_rows=true");

    assertThat(plain.status()).isEqualTo(200);
    assertThat(plain.body())
        .startsWith("-".repeat(100) + ",\nAccel-Sim-build,\nAPPS,SM90_H100\n")
        .contains(
            "gpu_tot_sim_cycle\\s*=\\s*(.*),\nAPPS,SM90_H100\n"
                + "demo/replica_0--k_a--0,100.0\n"
                + "demo/replica_0--"
                + COMMA_KERNEL
                + "--0,40.0\n"
                + "demo/replica_1--k_a--0,120.0\n"
                + "demo/replica_1--"
                + COMMA_KERNEL
                + "--0,44.0\n\n")
        .contains("gpu_ipc\\s*=\\s*(.*),\nAPPS,SM90_H100\ndemo/replica_0--k_a--0,0.3720\n")
        .doesNotContain("replica_2");
    assertThat(rows.status()).isEqualTo(200);
    assertThat(rows.body())
        .contains(
            "Accel-Sim-build,,\nCFG,demo/replica_0--all_kernels,demo/replica_1--all_kernels\n")
        .contains("SM90_H100,accelsim-commit-abc,accelsim-commit-abc\n");
  }

  @Test
  void getStatsCsv_refusesABadConfigsAsRowsNamingIt() {
    Response reply =
        server.get("/api/runs/" + runId + "/results/get_stats.csv?configs_as_rows=yes");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body()).contains("configs_as_rows").contains("\\\"yes\\\"");
  }

  @Test
  void exports_ofAnUnknownRun_are404() {
    assertThat(server.get("/api/runs/r_none/results/sims.csv").status()).isEqualTo(404);
    assertThat(server.get("/api/runs/r_none/results/get_stats.csv").status()).isEqualTo(404);
  }

  private void finish(String simId, String log) {
    server.heartbeat(simId, "{\"state\": \"running\", \"chunks\": 0}");
    String text =
        "Accel-Sim [build accelsim-commit-abc]\n" + log + "GPGPU-Sim: *** exit detected ***\n";
    assertThat(server.chunk(simId, 0, text).status()).isLessThan(300);
    assertThat(
            server
                .heartbeat(simId, "{\"state\": \"succeeded\", \"exit_code\": 0, \"chunks\": 1}")
                .status())
        .isLessThan(300);
    await()
        .atMost(ApiServer.WAIT)
        .until(
            () -> server.get("/api/sims/" + simId + "/kernels").json().get("kernels").size() == 2);
  }

  private static long totalCycles;
  private static long totalInsn;

  /** A statistics block; the first of a log also resets the running totals. */
  private static String log(long cycles, long insn, double ipc, boolean first) {
    if (first) {
      totalCycles = 0;
      totalInsn = 0;
    }
    totalCycles += cycles;
    totalInsn += insn;
    String name = first ? "k_a" : COMMA_KERNEL;
    return "kernel_name = "
        + name
        + " \nkernel_launch_uid = "
        + (first ? 1 : 2)
        + " \ngpu_sim_cycle = "
        + cycles
        + "\ngpu_sim_insn = "
        + insn
        + "\ngpu_ipc =      "
        + String.format(java.util.Locale.ROOT, "%.4f", ipc)
        + "\ngpu_tot_sim_cycle = "
        + totalCycles
        + "\ngpu_tot_sim_insn = "
        + totalInsn
        + (first ? "\ntotal dram reads = 3" : "")
        + "\nL2_cache_bank[0]: Access = 12, Miss = 10, Miss_rate = 0.833\n"
        + "gpgpu_silicon_slowdown = 1000x\n";
  }

  private static boolean pythonPresent() {
    try {
      Process probe = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
      probe.getInputStream().readAllBytes();
      return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
