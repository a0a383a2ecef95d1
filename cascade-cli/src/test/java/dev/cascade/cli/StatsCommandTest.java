package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cascade.accelsim.stats.KernelStatsParser;
import dev.cascade.accelsim.stats.StatsCsv;
import dev.cascade.accelsim.stats.StatsJson;
import dev.cascade.accelsim.stats.StatsWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command: options, files it cannot read, exit codes, and that it prints the documents of
 * cascade-accelsim's {@code StatsJson} and {@code StatsCsv} byte for byte (whose shape their own
 * tests pin).
 */
final class StatsCommandTest {

  private static final Path REAL_LOGS = CapturedCli.FIXTURES.resolve("accelsim/real-logs");
  private static final Path PATHFINDER =
      REAL_LOGS.resolve("RTX3070mod_pathfinder-rodinia-2.0-ft_4kernels.accelsim.log");
  private static final Path L1_LAT = REAL_LOGS.resolve("A30MIG1g_l1_lat_1kernel.accelsim.log");

  private static final String SMALL_LOG =
      """
      Accel-Sim [build accelsim-commit-abc]
              *** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-123] ***
      launching kernel name: first uid: 1 cuda_stream_id: 0
      kernel_name = first\s
      kernel_launch_uid = 1\s
      gpu_sim_cycle = 100
      gpu_sim_insn = 250
      gpu_tot_sim_cycle = 100
      gpu_tot_sim_insn = 250
      gpu_occupancy = 12.3456%\s
      Row_Bus_Util =  0.000025\s
      L2_cache_bank[0]: Access = 12, Miss = 10, Miss_rate = 0.833, Pending_hits = 0, Reservation_fails = 0
      gpgpu_silicon_slowdown = 124150x
      launching kernel name: first uid: 2 cuda_stream_id: 0
      kernel_name = first\s
      kernel_launch_uid = 2\s
      gpu_sim_cycle = 50
      gpu_sim_insn = 200
      gpu_tot_sim_cycle = 150
      gpu_tot_sim_insn = 450
      gpgpu_silicon_slowdown = 1x
      GPGPU-Sim: *** exit detected ***
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path folder;

  private final CapturedCli cli = new CapturedCli();
  private final StringWriter out = cli.out;
  private final StringWriter err = cli.err;

  private int run(String... args) {
    return cli.run(args);
  }

  private Path log(String name, String text) throws IOException {
    return Files.writeString(folder.resolve(name), text);
  }

  @Test
  void json_pinsTheRealLogsKernels() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_LOGS),
        "needs the fixture "
            + REAL_LOGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit = run("stats", "--json", PATHFINDER.toString(), L1_LAT.toString());

    assertThat(exit).isZero();
    JsonNode files = JSON.readTree(out.toString()).get("files");
    assertThat(files).hasSize(2);
    assertThat(kernelFacts(files.get(0)))
        .containsExactly(
            "_Z14dynproc_kerneliPiS_S_iiii 1 0 9118 209400",
            "_Z14dynproc_kerneliPiS_S_iiii 2 1 8864 209400",
            "_Z14dynproc_kerneliPiS_S_iiii 3 2 8854 209400",
            "_Z14dynproc_kerneliPiS_S_iiii 4 3 8216 176760");
    assertThat(kernelFacts(files.get(1))).containsExactly("_Z6l1_latPjS_PmS0_ 1 0 1328749 66978");
    JsonNode stats = files.get(0).get("kernels").get(0).get("stats");
    assertThat(stats.get("gpu_sim_cycle").asLong()).isEqualTo(9118);
    assertThat(stats.get("gpu_ipc").decimalValue()).isEqualByComparingTo("22.9656");
    assertThat(stats.get("Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT_RESERVED]").asLong())
        .isEqualTo(168);
    assertThat(stats.size()).isEqualTo(1259);
    assertThat(files.get(0).get("complete").asBoolean()).isTrue();
    assertThat(files.get(1).get("build").get("gpgpu_sim").asText())
        .isEqualTo("gpgpu-sim_git-commit-33644740_modified_3.0");
  }

  @Test
  void table_isTheDefault() throws IOException {
    Path log = log("small.log", SMALL_LOG);

    int exit = run("stats", log.toString());

    assertThat(exit).isZero();
    assertThat(out.toString().lines())
        .containsExactly(
            log.toString(),
            "  build: Accel-Sim accelsim-commit-abc, GPGPU-Sim gpgpu-sim_git-commit-123",
            "     uid instance         cycles    thread_insn        ipc  kernel",
            "       1        0            100            250     2.5000  first",
            "       2        1             50            200     4.0000  first",
            "            total            150            450     3.0000  2 kernels",
            "  outcome: complete (exit detected)");
  }

  @Test
  void table_demanglesKernelNamesAsTheResultsDo_whileCsvKeepsTheLogs() throws IOException {
    Assumptions.assumeTrue(
        dev.cascade.core.KernelNames.system().canDemangle(), "needs binutils' c++filt on PATH");
    Path log = log("mangled.log", SMALL_LOG.replace("first", "_Z6reducePfi"));

    assertThat(run("stats", log.toString())).isZero();
    assertThat(out.toString()).contains("2.5000  reduce(float*, int)\n").doesNotContain("_Z6");

    out.getBuffer().setLength(0);
    assertThat(run("stats", "--csv", log.toString())).isZero();
    assertThat(out.toString()).contains(",_Z6reducePfi,1,0,");
  }

  @Test
  void csv_printsOneRowPerKernel() throws IOException {
    Path log = log("a,b.log", SMALL_LOG);

    int exit = run("stats", "--csv", log.toString());

    assertThat(exit).isZero();
    assertThat(out.toString().lines())
        .containsExactly(
            "file,name,uid,instance,cycles,instructions,ipc",
            "\"" + log + "\",first,1,0,100,250,2.5",
            "\"" + log + "\",first,2,1,50,200,4.0");
  }

  @Test
  void missingFile_exitsOneNamesTheFileAndGoesOn() throws IOException {
    Path log = log("small.log", SMALL_LOG);
    Path missing = folder.resolve("nope.log");

    int exit = run("stats", "--json", missing.toString(), log.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "cascade stats: cannot read '"
                + missing
                + "': no such file; check the path"
                + System.lineSeparator());
    JsonNode files = JSON.readTree(out.toString()).get("files");
    assertThat(files).hasSize(1);
    assertThat(files.get(0).get("file").asText()).isEqualTo(log.toString());
  }

  @Test
  void directory_exitsOne() {
    int exit = run("stats", folder.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).contains("cannot read '" + folder + "': it is a directory");
    assertThat(err.toString()).doesNotContain("Exception");
  }

  @Test
  void usageErrors_exitTwo() {
    assertThat(run("stats")).isEqualTo(2);
    assertThat(run("stats", "--json", "--csv", "x.log")).isEqualTo(2);
    assertThat(run("stats", "--yaml", "x.log")).isEqualTo(2);
    assertThat(err.toString())
        .contains("cascade stats: Unknown option: '--yaml'")
        .contains("See 'cascade stats --help'.")
        .doesNotContain("Usage:");
  }

  @Test
  void json_isTheLibrarysDocumentByteForByte() throws IOException {
    Path small = log("small.log", SMALL_LOG);
    Path empty = log("empty.log", "");

    int exit = run("stats", "--json", small.toString(), empty.toString());

    assertThat(exit).isZero();
    assertThat(out.toString())
        .isEqualTo(document(StatsJson::new, small, empty))
        .startsWith("{\"files\":[{\"file\":\"" + small + "\",\"build\":")
        .endsWith("\"reason\":\"no exit, limit or failure line seen\"}}]}\n");
  }

  @Test
  void csv_isTheLibrarysDocumentByteForByte() throws IOException {
    Path small = log("small.log", SMALL_LOG);

    int exit = run("stats", "--csv", small.toString(), small.toString());

    assertThat(exit).isZero();
    assertThat(out.toString())
        .isEqualTo(document(StatsCsv::new, small, small))
        .isEqualTo(
            "file,name,uid,instance,cycles,instructions,ipc\n"
                + (small + ",first,1,0,100,250,2.5\n" + small + ",first,2,1,50,200,4.0\n")
                    .repeat(2));
  }

  @Test
  void realLogs_areTheLibrarysDocumentsByteForByte() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_LOGS),
        "needs the fixture "
            + REAL_LOGS
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
    Path a100 = REAL_LOGS.resolve("A100_flashinfer-gemm_8kernels.accelsim.log");

    int exit = run("stats", "--json", PATHFINDER.toString(), L1_LAT.toString(), a100.toString());
    String json = out.toString();
    out.getBuffer().setLength(0);
    int csvExit = run("stats", "--csv", PATHFINDER.toString(), L1_LAT.toString(), a100.toString());

    assertThat(exit).isZero();
    assertThat(csvExit).isZero();
    assertThat(json).isEqualTo(document(StatsJson::new, PATHFINDER, L1_LAT, a100));
    assertThat(out.toString()).isEqualTo(document(StatsCsv::new, PATHFINDER, L1_LAT, a100));
  }

  /** What the library's {@code format} writes for {@code logs}, each named by its path. */
  private static String document(Function<Writer, StatsWriter> format, Path... logs)
      throws IOException {
    StringWriter text = new StringWriter();
    StatsWriter writer = format.apply(text);
    writer.begin();
    for (Path log : logs) {
      writer.beginFile(log.toString());
      writer.endFile(KernelStatsParser.parse(log, writer));
    }
    writer.end();
    return text.toString();
  }

  private static List<String> kernelFacts(JsonNode file) {
    List<String> facts = new ArrayList<>();
    for (JsonNode kernel : file.get("kernels")) {
      facts.add(
          kernel.get("name").asText()
              + " "
              + kernel.get("uid")
              + " "
              + kernel.get("instance")
              + " "
              + kernel.get("cycles")
              + " "
              + kernel.get("instructions"));
    }
    return facts;
  }
}
