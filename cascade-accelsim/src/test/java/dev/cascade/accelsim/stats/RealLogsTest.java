package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real Accel-Sim logs in {@code ../shared/fixtures/accelsim/real-logs/}. The pinned cycles and
 * instructions were checked by hand against the logs' blocks: each is {@code gpu_tot_sim_cycle} /
 * {@code gpu_tot_sim_insn} minus the previous block's, which is what {@code get_stats.py -k -K}
 * prints (and here equals each block's {@code gpu_sim_cycle} / {@code gpu_sim_insn}).
 */
final class RealLogsTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Path REAL_LOGS = FIXTURES.resolve("accelsim/real-logs");
  private static final Path PATHFINDER =
      REAL_LOGS.resolve("RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels.accelsim.log");
  private static final Path L1_LAT = REAL_LOGS.resolve("A30MIG1g_l1_lat_1kernel.accelsim.log");
  private static final String DYNPROC = "_Z14dynproc_kerneliPiS_S_iiii";

  @BeforeEach
  void needsFixtures() {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_LOGS),
        "needs the fixtures at "
            + REAL_LOGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
  }

  @Test
  void parse_pinsPathfinderKernelCycles() throws IOException {
    LogSummary log = LogSummary.read(PATHFINDER);

    assertThat(log.kernels())
        .extracting(
            KernelStats::name,
            KernelStats::uid,
            KernelStats::instance,
            KernelStats::cycles,
            KernelStats::instructions)
        .containsExactly(
            tuple(DYNPROC, 1L, 0, 9118L, 209400L),
            tuple(DYNPROC, 2L, 1, 8864L, 209400L),
            tuple(DYNPROC, 3L, 2, 8854L, 209400L),
            tuple(DYNPROC, 4L, 3, 8216L, 176760L));
    assertThat(log.kernels())
        .extracting(KernelStats::ipc)
        .containsExactly(209400.0 / 9118, 209400.0 / 8864, 209400.0 / 8854, 176760.0 / 8216);
    assertThat(log.kernels())
        .allSatisfy(
            kernel -> {
              assertThat(kernel.stats().get("gpu_sim_cycle")).isEqualTo(kernel.cycles());
              assertThat(kernel.stats().get("gpu_sim_insn")).isEqualTo(kernel.instructions());
            });
    assertThat(log.kernels().get(3).stats())
        .containsEntry("gpu_tot_sim_cycle", 35052L)
        .containsEntry("gpu_tot_sim_insn", 804960L);
    assertThat(log.outcome().state()).isEqualTo(LogOutcome.State.COMPLETE);
    assertThat(log.build(BuildString.Component.ACCEL_SIM))
        .contains("accelsim-commit-_modified_0.0_25-11-25-18-50-33");
    assertThat(log.build(BuildString.Component.GPGPU_SIM))
        .contains("gpgpu-sim_git-commit-_modified_0.0");
  }

  @Test
  void parse_pinsPathfinderFirstBlockStatistics() throws IOException {
    KernelStats first = LogSummary.read(PATHFINDER).kernels().get(0);

    assertThat(first.stats())
        .containsEntry("gpu_ipc", 22.9656)
        .containsEntry("gpu_occupancy", 16.4256)
        .containsEntry("L2_BW", 3.7424)
        .containsEntry("Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT_RESERVED]", 168L)
        .containsEntry("L2_cache_stats_breakdown[GLOBAL_ACC_R][SECTOR_MISS]", 561L)
        .containsEntry("L1D_cache_core[0].Access", 269L)
        .containsEntry("L1D_cache_core[0].Miss_rate", 0.818)
        .containsEntry("L2_cache_bank[2].Access", 41L)
        .containsEntry("Row_Buffer_Locality", 0.916667)
        .containsEntry("Row_Buffer_Locality#2", 0.962264)
        .containsEntry("gpgpu_simulation_rate", 209400L)
        .containsEntry("gpgpu_simulation_rate#2", 9118L)
        .containsEntry("gpgpu_silicon_slowdown", 124150L)
        .doesNotContainKeys(
            "L1D_cache_core[5].Miss_rate", // -nan
            "average row locality", // 750/32 = 23.437500
            "gpgpu_simulation_time", // 0 days, 0 hrs, 0 min, 1 sec (1 sec)
            "n_cmd"); // n_cmd=40371 n_nop=40345 ...
    assertThat(first.stats()).hasSize(1259);
  }

  @Test
  void parse_pinsL1LatKernelCycles() throws IOException {
    LogSummary log = LogSummary.read(L1_LAT);

    assertThat(log.kernels())
        .extracting(
            KernelStats::name,
            KernelStats::uid,
            KernelStats::instance,
            KernelStats::cycles,
            KernelStats::instructions,
            KernelStats::ipc)
        .containsExactly(tuple("_Z6l1_latPjS_PmS0_", 1L, 0, 1328749L, 66978L, 66978.0 / 1328749));
    assertThat(log.outcome().state()).isEqualTo(LogOutcome.State.COMPLETE);
    assertThat(log.build(BuildString.Component.ACCEL_SIM))
        .contains("accelsim-commit-_modified_0.0_25-12-02-15-03-30");
    assertThat(log.build(BuildString.Component.GPGPU_SIM))
        .contains("gpgpu-sim_git-commit-33644740_modified_3.0");
  }

  @Test
  void feed_givesTheSameResultForRealLogsInAnyChunkSize() throws IOException {
    for (Path file : List.of(PATHFINDER, L1_LAT)) {
      byte[] log = Files.readAllBytes(file);
      List<String> whole = KernelStatsParserTest.Recorder.events(log);
      for (int chunk : new int[] {1, 2, 3, 5, 7, 61, 4093, 65536}) {
        KernelStatsParserTest.Recorder recorder = new KernelStatsParserTest.Recorder();
        KernelStatsParser parser = new KernelStatsParser(recorder);
        for (int i = 0; i < log.length; i += chunk) {
          parser.feed(log, i, Math.min(chunk, log.length - i));
        }
        parser.finish();
        assertThat(recorder.events).as("%s in chunks of %d", file, chunk).isEqualTo(whole);
      }
    }
  }

  @Test
  void parse_reportsLaunchesAndMemcpysOfTheRealLog() throws IOException {
    KernelStatsParserTest.Recorder recorder = new KernelStatsParserTest.Recorder();
    KernelStatsParser.parse(PATHFINDER, recorder);

    assertThat(recorder.events)
        .filteredOn(event -> event.startsWith("memcpy ") || event.startsWith("launch "))
        .startsWith(
            "memcpy MemcpyCommand[kind=MemcpyHtoD, address="
                + 0x00007f73bee00000L
                + ", bytes=4000]",
            "memcpy MemcpyCommand[kind=MemcpyHtoD, address="
                + 0x00007f73bee02000L
                + ", bytes=76000]",
            "launch " + DYNPROC + " 1");
    assertThat(recorder.events).filteredOn(event -> event.startsWith("launch ")).hasSize(4);
  }
}
