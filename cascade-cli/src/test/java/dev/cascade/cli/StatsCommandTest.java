package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class StatsCommandTest {

  private static final Path REAL_LOGS =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/real-logs");
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

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  private Path log(String name, String text) throws IOException {
    return Files.writeString(folder.resolve(name), text);
  }

  @Test
  void json_hasExactlyTheDesignShape() throws IOException {
    Path log = log("small.log", SMALL_LOG);

    int exit = run("stats", "--json", log.toString());

    assertThat(exit).isZero();
    assertThat(err.toString()).isEmpty();
    JsonNode root = JSON.readTree(out.toString());
    assertThat(fieldNames(root)).containsExactly("files");
    JsonNode file = root.get("files").get(0);
    assertThat(fieldNames(file))
        .containsExactlyInAnyOrder("file", "complete", "build", "kernels", "outcome");
    assertThat(file.get("file").asText()).isEqualTo(log.toString());
    assertThat(file.get("complete").asBoolean()).isTrue();
    assertThat(file.get("outcome").toString())
        .isEqualTo("{\"state\":\"complete\",\"reason\":\"exit detected\"}");
    assertThat(file.get("build").toString())
        .isEqualTo(
            "{\"accel_sim\":\"accelsim-commit-abc\",\"gpgpu_sim\":\"gpgpu-sim_git-commit-123\"}");
    JsonNode first = file.get("kernels").get(0);
    assertThat(fieldNames(first))
        .containsExactly("name", "uid", "instance", "cycles", "instructions", "ipc", "stats");
    assertThat(first.get("stats").toString())
        .isEqualTo(
            "{\"kernel_launch_uid\":1,\"gpu_sim_cycle\":100,\"gpu_sim_insn\":250,"
                + "\"gpu_tot_sim_cycle\":100,\"gpu_tot_sim_insn\":250,\"gpu_occupancy\":12.3456,"
                + "\"Row_Bus_Util\":2.5E-5,\"L2_cache_bank[0].Access\":12,"
                + "\"L2_cache_bank[0].Miss\":10,\"L2_cache_bank[0].Miss_rate\":0.833,"
                + "\"L2_cache_bank[0].Pending_hits\":0,"
                + "\"L2_cache_bank[0].Reservation_fails\":0,"
                + "\"gpgpu_silicon_slowdown\":124150}");
    assertThat(out.toString()).contains("\"Row_Bus_Util\":0.000025,");
    JsonNode second = file.get("kernels").get(1);
    assertThat(second.get("uid").asLong()).isEqualTo(2);
    assertThat(second.get("instance").asInt()).isEqualTo(1);
    assertThat(second.get("cycles").asLong()).isEqualTo(50);
    assertThat(second.get("instructions").asLong()).isEqualTo(200);
    assertThat(second.get("ipc").asDouble()).isEqualTo(4.0);
  }

  @Test
  void json_pinsTheRealLogsKernels() throws IOException {
    Assumptions.assumeTrue(Files.isDirectory(REAL_LOGS), "fixtures not present");

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
  void json_reportsFailuresAndLimits() throws IOException {
    Path deadlock =
        log(
            "deadlock.log",
            SMALL_LOG.replace(
                "GPGPU-Sim: *** exit detected ***",
                "GPGPU-Sim uArch: ERROR ** deadlock detected: last writeback core 0"));
    Path limit =
        log(
            "limit.log",
            SMALL_LOG.replace(
                "GPGPU-Sim: *** exit detected ***",
                "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n"
                    + "GPGPU-Sim: *** exit detected ***"));
    Path binary = log("binary.log", "unsupported binary version: 99\n");
    Path empty = log("empty.log", "");

    int exit =
        run(
            "stats",
            "--json",
            deadlock.toString(),
            limit.toString(),
            binary.toString(),
            empty.toString());

    assertThat(exit).isZero();
    JsonNode files = JSON.readTree(out.toString()).get("files");
    assertThat(files)
        .extracting(
            file -> file.get("complete").asBoolean() + " " + file.get("outcome").get("state"))
        .containsExactly(
            "false \"failed\"", "false \"not_final\"", "false \"failed\"", "false \"incomplete\"");
    assertThat(files.get(0).get("outcome").get("reason").asText()).contains("deadlock detected");
    assertThat(files.get(2).get("outcome").get("reason").asText())
        .isEqualTo("unsupported binary version: 99");
    assertThat(files.get(3).get("kernels")).isEmpty();
    assertThat(files.get(3).get("build").toString())
        .isEqualTo("{\"accel_sim\":null,\"gpgpu_sim\":null}");
  }

  @Test
  void json_escapesNamesAndPaths() throws IOException {
    String name = "weird\"name\\with\ttab_\u00e9\u4e2d";
    Path log =
        log(
            "we\"ird.log",
            "kernel_name = " + name + "\ngpu_tot_sim_cycle = 4\ngpu_tot_sim_insn = 8\n");

    int exit = run("stats", "--json", log.toString());

    assertThat(exit).isZero();
    JsonNode file = JSON.readTree(out.toString()).get("files").get(0);
    assertThat(file.get("file").asText()).isEqualTo(log.toString());
    assertThat(file.get("kernels").get(0).get("name").asText()).isEqualTo(name);
    assertThat(file.get("kernels").get(0).get("ipc").asDouble()).isEqualTo(2.0);
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
            "     uid instance         cycles   instructions        ipc  kernel",
            "       1        0            100            250     2.5000  first",
            "       2        1             50            200     4.0000  first",
            "            total            150            450     3.0000  2 kernels",
            "  outcome: complete (exit detected)");
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
    assertThat(err.toString()).contains("Usage: cascade stats");
  }

  @Test
  void jsonWriter_writesDecimalsInPlainShortestForm() throws IOException {
    StringWriter text = new StringWriter();
    StatsCommand.JsonWriter json = new StatsCommand.JsonWriter(new PrintWriter(text));
    json.beginArray();
    for (double value :
        new double[] {
          0.000025, 3.0, -12.5, 0.1, 124150.0, 22.965562623382322, 1e20, Double.NaN, 0.0
        }) {
      json.value(value);
    }
    json.value(Long.MIN_VALUE);
    json.value(-7L);
    json.endArray();
    json.flush();

    assertThat(text.toString())
        .isEqualTo(
            "[0.000025,3.0,-12.5,0.1,124150.0,22.965562623382322,1.0E20,null,0.0,"
                + Long.MIN_VALUE
                + ",-7]");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
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
