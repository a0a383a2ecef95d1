package dev.cascade.accelsim.stats;

import static dev.cascade.accelsim.stats.StatsDocuments.REAL_LOGS;
import static dev.cascade.accelsim.stats.StatsDocuments.SMALL_LOG;
import static dev.cascade.accelsim.stats.StatsDocuments.sha256;
import static dev.cascade.accelsim.stats.StatsDocuments.write;
import static dev.cascade.accelsim.stats.StatsDocuments.writeFiles;
import static dev.cascade.accelsim.stats.StatsJsonTest.realLog;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The {@code cascade stats --csv} document, byte for byte. */
final class StatsCsvTest {

  @Test
  void write_printsOneRowPerKernel() {
    String csv = write(StatsCsv::new, "a,b.log", SMALL_LOG, "empty.log", "");

    assertThat(csv)
        .isEqualTo(
            "file,name,uid,instance,cycles,instructions,ipc\n"
                + "\"a,b.log\",first,1,0,100,250,2.5\n"
                + "\"a,b.log\",first,2,1,50,200,4.0\n");
  }

  @Test
  void write_quotesFieldsWithQuotesAndLineBreaks() {
    String csv =
        write(
            StatsCsv::new,
            "we\"ird.log",
            "kernel_name = weird\"name\\with\ttab_\u00e9\u4e2d\n"
                + "gpu_tot_sim_cycle = 4\ngpu_tot_sim_insn = 8\n");

    assertThat(csv)
        .isEqualTo(
            StatsCsv.HEADER
                + "\n\"we\"\"ird.log\",\"weird\"\"name\\with\ttab_\u00e9\u4e2d\",0,0,4,8,2.0\n");
    assertThat(StatsCsv.field("two\nlines")).isEqualTo("\"two\nlines\"");
    assertThat(StatsCsv.field("cr\r")).isEqualTo("\"cr\r\"");
    assertThat(StatsCsv.field("plain")).isEqualTo("plain");
  }

  @Test
  void write_noFiles_isTheHeaderAlone() {
    assertThat(write(StatsCsv::new)).isEqualTo(StatsCsv.HEADER + "\n");
  }

  /** Pinned as {@code cascade stats --csv LOG} printed it before the document moved here. */
  @Test
  void write_pinsTheRealLogsWhole() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_LOGS),
        "needs the fixtures at "
            + REAL_LOGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    assertThat(sha256(writeFiles(StatsCsv::new, realLog("A100_flashinfer-gemm_8kernels"))))
        .isEqualTo("1560bafd06ebc11d58e79c589ba92f27b94e137d5f7da0aa7b1a2f558c637378");
    assertThat(writeFiles(StatsCsv::new, realLog("A30MIG1g_l1_lat_1kernel")))
        .isEqualTo(
            StatsCsv.HEADER
                + "\nA30MIG1g_l1_lat_1kernel.accelsim.log,_Z6l1_latPjS_PmS0_,1,0,1328749,66978,"
                + "0.050406811218672604\n");
    String pathfinder = "RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels.accelsim.log,";
    String dynproc = "_Z14dynproc_kerneliPiS_S_iiii,";
    assertThat(writeFiles(StatsCsv::new, realLog("RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels")))
        .isEqualTo(
            StatsCsv.HEADER
                + "\n"
                + pathfinder
                + dynproc
                + "1,0,9118,209400,22.965562623382322\n"
                + pathfinder
                + dynproc
                + "2,1,8864,209400,23.623646209386283\n"
                + pathfinder
                + dynproc
                + "3,2,8854,209400,23.65032753557714\n"
                + pathfinder
                + dynproc
                + "4,3,8216,176760,21.514118792599806\n");
  }
}
