package dev.cascade.accelsim.stats;

import static dev.cascade.accelsim.stats.StatsDocuments.REAL_LOGS;
import static dev.cascade.accelsim.stats.StatsDocuments.SMALL_LOG;
import static dev.cascade.accelsim.stats.StatsDocuments.sha256;
import static dev.cascade.accelsim.stats.StatsDocuments.write;
import static dev.cascade.accelsim.stats.StatsDocuments.writeFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The {@code cascade stats --json} document, byte for byte. */
final class StatsJsonTest {

  private static final String SMALL_BUILD =
      "{\"accel_sim\":\"accelsim-commit-abc\",\"gpgpu_sim\":\"gpgpu-sim_git-commit-123\"}";
  private static final String NO_BUILD = "{\"accel_sim\":null,\"gpgpu_sim\":null}";
  private static final String SMALL_KERNELS =
      "[{\"name\":\"first\",\"uid\":1,\"instance\":0,\"cycles\":100,\"instructions\":250,"
          + "\"ipc\":2.5,\"stats\":{\"kernel_launch_uid\":1,\"gpu_sim_cycle\":100,"
          + "\"gpu_sim_insn\":250,\"gpu_tot_sim_cycle\":100,\"gpu_tot_sim_insn\":250,"
          + "\"gpu_occupancy\":12.3456,\"Row_Bus_Util\":0.000025,"
          + "\"L2_cache_bank[0].Access\":12,\"L2_cache_bank[0].Miss\":10,"
          + "\"L2_cache_bank[0].Miss_rate\":0.833,\"L2_cache_bank[0].Pending_hits\":0,"
          + "\"L2_cache_bank[0].Reservation_fails\":0,\"gpgpu_silicon_slowdown\":124150}},"
          + "{\"name\":\"first\",\"uid\":2,\"instance\":1,\"cycles\":50,\"instructions\":200,"
          + "\"ipc\":4.0,\"stats\":{\"kernel_launch_uid\":2,\"gpu_sim_cycle\":50,"
          + "\"gpu_sim_insn\":200,\"gpu_tot_sim_cycle\":150,\"gpu_tot_sim_insn\":450,"
          + "\"gpgpu_silicon_slowdown\":1}}]";

  @Test
  void write_hasExactlyTheDesignShape() {
    String json = write(StatsJson::new, "small.log", SMALL_LOG);

    assertThat(json)
        .isEqualTo(
            document(
                file(
                    "\"small.log\"",
                    SMALL_BUILD,
                    SMALL_KERNELS,
                    true,
                    "complete",
                    "\"exit detected\"")));
  }

  @Test
  void write_reportsFailuresAndLimits() {
    String json =
        write(
            StatsJson::new,
            "deadlock.log",
            SMALL_LOG.replace(
                "GPGPU-Sim: *** exit detected ***",
                "GPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 0"),
            "limit.log",
            SMALL_LOG.replace(
                "GPGPU-Sim: *** exit detected ***",
                "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n"
                    + "GPGPU-Sim: *** exit detected ***"),
            "binary.log",
            "unsupported binary version: 99\n",
            "empty.log",
            "");

    assertThat(json)
        .isEqualTo(
            document(
                file(
                    "\"deadlock.log\"",
                    SMALL_BUILD,
                    SMALL_KERNELS,
                    false,
                    "failed",
                    "\"GPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 0\""),
                file(
                    "\"limit.log\"",
                    SMALL_BUILD,
                    SMALL_KERNELS,
                    false,
                    "not_final",
                    "\"GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions)"
                        + " **\""),
                file(
                    "\"binary.log\"",
                    NO_BUILD,
                    "[]",
                    false,
                    "failed",
                    "\"unsupported binary version: 99\""),
                file(
                    "\"empty.log\"",
                    NO_BUILD,
                    "[]",
                    false,
                    "incomplete",
                    "\"no exit, limit or failure line seen\"")));
  }

  @Test
  void write_escapesNamesAndPaths() {
    String name = "weird\"name\\with\ttab_\u00e9\u4e2d";

    String json =
        write(
            StatsJson::new,
            "we\"ird.log",
            "kernel_name = " + name + "\ngpu_tot_sim_cycle = 4\ngpu_tot_sim_insn = 8\n");

    assertThat(json)
        .isEqualTo(
            document(
                file(
                    "\"we\\\"ird.log\"",
                    NO_BUILD,
                    "[{\"name\":\"weird\\\"name\\\\with\\ttab_\u00e9\u4e2d\",\"uid\":0,"
                        + "\"instance\":0,\"cycles\":4,\"instructions\":8,\"ipc\":2.0,"
                        + "\"stats\":{\"gpu_tot_sim_cycle\":4,\"gpu_tot_sim_insn\":8}}]",
                    false,
                    "incomplete",
                    "\"no exit, limit or failure line seen\"")));
  }

  @Test
  void write_keepsTheFirstBuildOfEachComponent() {
    String json =
        write(
            StatsJson::new,
            "twice.log",
            SMALL_LOG + "Accel-Sim [build second-start]\n" + SMALL_LOG.replace("first", "again"));

    assertThat(json).contains("\"build\":" + SMALL_BUILD + ",").doesNotContain("second-start");
  }

  @Test
  void write_noFiles_isAnEmptyList() {
    assertThat(write(StatsJson::new)).isEqualTo("{\"files\":[]}\n");
  }

  @Test
  void write_failingWriter_throwsItsError() {
    Writer broken =
        new Writer() {
          @Override
          public void write(char[] chars, int offset, int length) throws IOException {
            throw new IOException("disk full");
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    StatsJson json = new StatsJson(broken);
    json.begin();
    json.beginFile("a.log");
    KernelStatsParser parser = new KernelStatsParser(json);
    parser.feed(SMALL_LOG.getBytes(StandardCharsets.UTF_8));
    json.endFile(parser.finish());

    assertThatThrownBy(json::end).isInstanceOf(IOException.class).hasMessage("disk full");
  }

  /**
   * The real logs, pinned whole: the checksums are of what {@code cascade stats --json LOG} printed
   * (run in the logs' folder) before the document moved here from the CLI.
   */
  @Test
  void write_pinsTheRealLogsWhole() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_LOGS),
        "needs the fixtures at "
            + REAL_LOGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    assertThat(sha256(writeFiles(StatsJson::new, realLog("A100_flashinfer-gemm_8kernels"))))
        .isEqualTo("21143c64c486d5c7867e9276deb5e43057114845532eadb851c6f52726981031");
    assertThat(sha256(writeFiles(StatsJson::new, realLog("A30MIG1g_l1_lat_1kernel"))))
        .isEqualTo("a33c78cf3cfbcf0c9b44801ba62e3c153552f9d7bfbce610afad6da5ed56f4f9");
    String pathfinder =
        writeFiles(StatsJson::new, realLog("RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels"));
    assertThat(sha256(pathfinder))
        .isEqualTo("fc02bec1bfdc3e1d8b55b897e1c283d1dd9fc33fcbbc4367ca114b7cdff6f0df");
    assertThat(pathfinder)
        .startsWith(
            "{\"files\":[{\"file\":\"RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels.accelsim.log\","
                + "\"build\":{\"accel_sim\":")
        .contains(
            "{\"name\":\"_Z14dynproc_kerneliPiS_S_iiii\",\"uid\":1,\"instance\":0,"
                + "\"cycles\":9118,\"instructions\":209400,\"ipc\":22.965562623382322,"
                + "\"stats\":{")
        .contains("\"gpu_ipc\":22.9656,")
        .contains("\"Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT_RESERVED]\":168")
        .endsWith(
            "\"complete\":true,\"outcome\":{\"state\":\"complete\",\"reason\":\"exit detected\"}}]}\n");
  }

  static Path realLog(String name) {
    return REAL_LOGS.resolve(name + ".accelsim.log");
  }

  private static String document(String... files) {
    return "{\"files\":[" + String.join(",", files) + "]}\n";
  }

  /** One file's object; {@code file} and {@code reason} are given as JSON strings. */
  private static String file(
      String file, String build, String kernels, boolean complete, String state, String reason) {
    return "{\"file\":"
        + file
        + ",\"build\":"
        + build
        + ",\"kernels\":"
        + kernels
        + ",\"complete\":"
        + complete
        + ",\"outcome\":{\"state\":\""
        + state
        + "\",\"reason\":"
        + reason
        + "}}";
  }
}
