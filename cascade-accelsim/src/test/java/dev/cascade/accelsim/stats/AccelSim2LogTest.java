package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * What Accel-Sim 2.0 adds to a log: vector statistics ({@code name = v0,v1,...}) kept as lists,
 * access types the 2024 enum lacks kept like any other, and the version a build line names. The log
 * below is written for the test: its build lines as accel-sim-framework's {@code
 * gpu-simulator/accel-sim.cc} @ e5653f02 and gpgpu-sim's {@code print_splash} ({@code
 * src/cuda-sim/cuda-sim.cc}, {@code version} @ 667834cf) print them; the vector lines in the shape
 * issue 26 gives (no Accel-Sim 2.0 log was at hand).
 */
final class AccelSim2LogTest {

  private static final String LOG =
      """
      Accel-Sim [build accelsim-commit-0123abc_modified_0.0]

              *** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-667834cf] ***


      launching kernel name: _Z4gemmPf uid: 1 cuda_stream_id: 0
      kernel_name = _Z4gemmPf
      kernel_launch_uid = 1
      gpu_sim_cycle = 900
      gpu_sim_insn = 4096
      gpu_tot_sim_cycle = 900
      gpu_tot_sim_insn = 4096
      gpu_stall_dramfull = 12
      gpu_ctas_per_sm = 1,2,0,3
      gpu_sm_cycles = 10.5, 11.25 ,12
      gpu_sm_cycles = 1,2
      not_a_vector = 1,2,x
      gpu_clusters = 4,
      \tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 7
      \tTotal_core_cache_stats_breakdown[TMA_ACC_R][HIT] = 5
      \tTotal_core_cache_stats_breakdown[DSMEM_ACC_W][MISS] = 2
      traffic_breakdown_coretomem[TMA_ACC_R] = 640 {8:80,}
      L2_cache_stats_breakdown[TMA_ACC_R][MISS] = 3
      gpgpu_silicon_slowdown = 1000x
      GPGPU-Sim: *** exit detected ***
      """;

  @Test
  void vectorStatistics_areKeptAsLists_andScalarsAsBefore() {
    KernelStats kernel = LogSummary.parse(LOG).kernels().getFirst();

    assertThat(kernel.vectors())
        .containsOnlyKeys("gpu_ctas_per_sm", "gpu_sm_cycles", "gpu_sm_cycles#2")
        .containsEntry("gpu_ctas_per_sm", List.of(1L, 2L, 0L, 3L))
        .containsEntry("gpu_sm_cycles", List.of(10.5, 11.25, 12L))
        .containsEntry("gpu_sm_cycles#2", List.of(1L, 2L));
    // A vector is never read as its first value, and what is not one stays out, as before.
    assertThat(kernel.stats())
        .doesNotContainKeys("gpu_ctas_per_sm", "gpu_sm_cycles", "not_a_vector", "gpu_clusters")
        .containsEntry("gpu_stall_dramfull", 12L);
    assertThat(kernel.instructions()).isEqualTo(4096);
    assertThat(kernel.cycles()).isEqualTo(900);
  }

  @Test
  void accessTypesThe2024EnumLacks_areKeptInBreakdowns() {
    KernelStats kernel = LogSummary.parse(LOG).kernels().getFirst();

    assertThat(kernel.stats())
        .containsEntry("Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", 7L)
        .containsEntry("Total_core_cache_stats_breakdown[TMA_ACC_R][HIT]", 5L)
        .containsEntry("Total_core_cache_stats_breakdown[DSMEM_ACC_W][MISS]", 2L)
        .containsEntry("traffic_breakdown_coretomem[TMA_ACC_R]", 640L)
        .containsEntry("L2_cache_stats_breakdown[TMA_ACC_R][MISS]", 3L);
  }

  @Test
  void buildLines_sayWhichAccelSimAndGpgpuSimVersionMadeTheLog() {
    LogSummary log = LogSummary.parse(LOG);

    assertThat(log.build(BuildString.Component.ACCEL_SIM))
        .contains("accelsim-commit-0123abc_modified_0.0");
    assertThat(log.builds())
        .extracting(BuildString::component, BuildString::version)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(BuildString.Component.ACCEL_SIM, null),
            org.assertj.core.groups.Tuple.tuple(BuildString.Component.GPGPU_SIM, "4.2.0"));
    LogBuilds builds = LogBuilds.NONE;
    for (BuildString build : log.builds()) {
      builds = builds.with(build);
    }
    assertThat(builds.gpgpuSimVersion()).isEqualTo("4.2.0");
    assertThat(builds.gpgpuSim()).isEqualTo("gpgpu-sim_git-commit-667834cf");
  }

  @Test
  void aVersionBeforeTheBuild_isTakenFromEitherLine() {
    assertThat(BuildString.versionIn("Accel-Sim v2.0.0 ")).isEqualTo("2.0.0");
    assertThat(BuildString.versionIn("*** GPGPU-Sim Simulator Version 4.2.0  ")).isEqualTo("4.2.0");
    assertThat(BuildString.versionIn("Accel-Sim ")).isNull();
  }

  @Test
  void theRealLogs_nameGpgpuSim420() throws IOException {
    Path logs =
        Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
            .resolve("accelsim/real-logs");
    Assumptions.assumeTrue(Files.isDirectory(logs), "needs the fixtures at " + logs);
    try (var files = Files.list(logs)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        LogSummary log = LogSummary.read(file);
        assertThat(log.builds())
            .as(file.toString())
            .filteredOn(build -> build.component() == BuildString.Component.GPGPU_SIM)
            .extracting(BuildString::version)
            .containsOnly("4.2.0");
        assertThat(log.kernels()).allSatisfy(kernel -> assertThat(kernel.vectors()).isEmpty());
      }
    }
  }
}
