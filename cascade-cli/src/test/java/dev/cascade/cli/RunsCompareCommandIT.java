package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.cli.CliTestServer.Result;
import dev.cascade.core.RunEntry;
import dev.cascade.core.RunState;
import dev.cascade.core.spi.SimLaunch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cascade runs compare} and the partial mark of {@code cascade runs results}, against a real
 * server whose sims the test plays.
 */
final class RunsCompareCommandIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;
  private CliTestServer cascade;

  @BeforeEach
  void start() throws Exception {
    cascade = new CliTestServer(dataDir);
  }

  @AfterEach
  void stop() {
    cascade.close();
  }

  private String finishedRun(String build) throws Exception {
    String id = cascade.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 1))).id();
    SimLaunch sim = cascade.nextLaunch();
    cascade.heartbeat(sim, build);
    cascade.succeed(sim);
    await()
        .atMost(CliTestServer.WAIT)
        .until(() -> cascade.engine.runs().get(id).state() == RunState.SUCCEEDED);
    return id;
  }

  @Test
  void compare_twoRunsOnDifferentSimulatorBuilds_printsWhatDiffersAndEachKernelsChange()
      throws Exception {
    String before = finishedRun("accelsim-commit-aaaa");
    String after = finishedRun("accelsim-commit-bbbb");

    Result result = cascade.run("runs", "compare", before, after);

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .contains("Runs against baseline " + before)
        .contains(before + " (baseline): trace demo, succeeded")
        .contains(after + " against " + before + ":")
        .contains("SM90_H100: differs: simulator build")
        .containsPattern(
            "simulator build\\s+differs\\s+Accel-Sim accelsim-commit-aaaa, GPGPU-Sim"
                + " gpgpu-sim_git-commit-test\\s+Accel-Sim accelsim-commit-bbbb")
        .containsPattern("cycles: simulated cycles of the GPU config's core clock")
        .containsPattern("IPC: thread-level IPC");
    // The test server's sims give the same cycles whatever the build: 1000, 2000, 3000.
    assertThat(result.out())
        .containsPattern(
            "kernel_2\\s+2000\\s+2000\\s+\\+0 \\(\\+0\\.0%\\) 1\\.00x same within spread\\s+"
                + "4\\.000 -> 4\\.000\\s+\\+0\\.000 \\(\\+0\\.0%\\) same within spread")
        .containsPattern(
            "total\\s+6000\\s+6000\\s+\\+0 \\(\\+0\\.0%\\) 1\\.00x same within spread");
  }

  @Test
  void compare_withMeasure_addsAColumnPairPerStatisticAndSaysWhatItCounts() throws Exception {
    String before = finishedRun("accelsim-commit-aaaa");
    String after = finishedRun("accelsim-commit-bbbb");

    Result result =
        cascade.run(
            "runs",
            "compare",
            before,
            after,
            "--measure",
            "gpu_tot_sim_insn:change",
            "--measure",
            "gpu_ipc");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .containsPattern("gpu_tot_sim_insn:change: the change in the simulator's running total")
        .containsPattern("TIME CHANGE\\s+gpu_tot_sim_insn:change\\s+gpu_tot_sim_insn:change CHANGE")
        // kernel k runs 4000 * k instructions on every build; IPC is printed as 2.0000.
        .containsPattern(
            "kernel_2\\s.*\\s8000 -> 8000\\s+\\+0 \\(\\+0\\.0%\\) same within spread\\s+"
                + "2 -> 2\\s+\\+0 \\(\\+0\\.0%\\) same within spread")
        .containsPattern("total\\s.*\\s24000 -> 24000\\s");

    JsonNode json =
        JSON.readTree(
            cascade
                .run("runs", "compare", before, after, "--json", "--measure", "gpu_ipc:mean")
                .out());
    assertThat(json.at("/changes/0/configs/0/total/gpu_ipc:mean/direction").asText())
        .isEqualTo("same_within_spread");
  }

  @Test
  void compare_withAMeasureNoKernelPrintedOrABadForm_exits2NamingIt() throws Exception {
    String before = finishedRun("accelsim-commit-aaaa");
    String after = finishedRun("accelsim-commit-bbbb");

    Result unknown =
        cascade.run("runs", "compare", before, after, "--measure", "gpu_tot_sim_ins:change");
    assertThat(unknown.exit()).as(unknown.out()).isEqualTo(2);
    assertThat(unknown.err()).contains("gpu_tot_sim_ins").contains("did you mean");

    Result badForm = cascade.run("runs", "compare", before, after, "--measure", "gpu_ipc:median");
    assertThat(badForm.exit()).isEqualTo(2);
    assertThat(badForm.err()).contains("--measure").contains(":median");
  }

  @Test
  void compare_json_isTheApisShape() throws Exception {
    String before = finishedRun("accelsim-commit-aaaa");
    String after = finishedRun("accelsim-commit-bbbb");

    Result result = cascade.run("runs", "compare", before, after, "--json");

    assertThat(result.exit()).as(result.err()).isZero();
    JsonNode json = JSON.readTree(result.out());
    assertThat(json.path("baseline").asText()).isEqualTo(before);
    assertThat(json.at("/changes/0/configs/0/differs").toString())
        .isEqualTo("[\"simulator build\"]");
    assertThat(json.at("/changes/0/configs/0/kernels")).hasSize(CliTestServer.KERNELS);
  }

  @Test
  void compare_badRuns_failWithTheReasonAndTheRightExitCode() throws Exception {
    String before = finishedRun("accelsim-commit-aaaa");

    Result one = cascade.run("runs", "compare", before);
    assertThat(one.exit()).isEqualTo(2);
    assertThat(one.err()).contains("RUN");

    Result unknown = cascade.run("runs", "compare", before, "r_nope");
    assertThat(unknown.exit()).isEqualTo(2); // a run that does not exist: usage, as a bad value
    assertThat(unknown.err()).contains("run \"r_nope\" in runs does not exist");

    Result twice = cascade.run("runs", "compare", before, before);
    assertThat(twice.exit()).isEqualTo(2);
    assertThat(twice.err()).contains("names run \"" + before + "\" twice");
  }

  @Test
  void results_ofAnActiveRun_sayTheyArePartialAndWhatIsToCome() throws Exception {
    String id = cascade.engine.runs().create("demo", List.of(new RunEntry("SM90_H100", 2))).id();
    List<SimLaunch> sims = cascade.nextLaunches(2);
    SimLaunch first = sims.get(0).replica() == 0 ? sims.get(0) : sims.get(1);
    SimLaunch second = first == sims.get(0) ? sims.get(1) : sims.get(0);
    cascade.succeed(first);
    cascade.finishKernel(second, 1);
    await()
        .atMost(CliTestServer.WAIT)
        .until(
            () ->
                cascade.engine.runs().get(id).latestAttempts().stream()
                    .anyMatch(sim -> sim.replica() == 1 && sim.progress().kernelsDone() == 1));

    Result result = cascade.run("runs", "results", id);

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .contains(
            "PARTIAL RESULTS, partial: 1 of 2 sims finished, 4 of 6 kernels done; still to come:"
                + " SM90_H100 replica 1")
        .containsPattern("kernel_1\\s+2\\s+")
        .containsPattern("kernel_2\\s+1\\s+")
        .contains("replica 1 still to finish: the 1 kernel finished so far counts");
    JsonNode json = JSON.readTree(cascade.run("runs", "results", id, "--json").out());
    assertThat(json.path("partial").asBoolean()).isTrue();
    assertThat(json.at("/progress/to_come/0/replica").asInt()).isEqualTo(1);
  }
}
