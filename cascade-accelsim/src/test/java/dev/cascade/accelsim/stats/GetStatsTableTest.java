package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layout of {@code get_stats.py -k -K}: against what the script itself wrote for the real A100
 * log ({@code ../shared/fixtures/accelsim/stats/}), byte for byte, and on small inline logs for the
 * script's rules (differences of aggregates, the limit line, a log that did not finish).
 */
final class GetStatsTableTest {

  private static final Path FIXTURES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"));
  private static final Path A100_LOG =
      FIXTURES.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
  private static final Path STATS = FIXTURES.resolve("accelsim/stats");

  @Test
  void write_equalsTheScriptsOwnOutputOnTheA100Log() throws IOException {
    assumeFixtures();
    GetStatsTable table = a100Table();

    assertThat(write(table, false))
        .isEqualTo(
            Files.readString(
                STATS.resolve("get_stats_kK_A100_flashinfer-gemm.csv"), StandardCharsets.UTF_8));
  }

  @Test
  void write_configsAsRows_equalsTheScriptsOwnDashROutputOnTheA100Log() throws IOException {
    assumeFixtures();
    GetStatsTable table = a100Table();

    assertThat(write(table, true))
        .isEqualTo(
            Files.readString(
                STATS.resolve("get_stats_kKR_A100_flashinfer-gemm.csv"), StandardCharsets.UTF_8));
  }

  @Test
  void read_theExampleStatsFileGivesTheBuiltInList() throws IOException {
    assumeFixtures();

    assertThat(GetStatsList.read(STATS.resolve("example_stats.yml")))
        .isEqualTo(GetStatsList.ACCEL_SIM_EXAMPLE);
  }

  @Test
  void add_differencesAggregatesAndKeepsOtherValuesAsPrinted() throws IOException {
    GetStatsTable table = new GetStatsTable(small(), false);
    table.add(
        "app",
        "NO_ARGS",
        "CFG",
        log(
            "kernel_name = k ",
            "gpu_tot_sim_insn = 100",
            "gpu_ipc =       0.3720",
            "kernel_name = k ",
            "gpu_tot_sim_insn = 350",
            "gpu_ipc =      -nan",
            "kernel_name = other",
            "gpu_ipc = 1.0",
            "GPGPU-Sim: *** exit detected ***"));

    assertThat(write(table, false))
        .isEqualTo(
            section("Accel-Sim-build", ",", "APPS,CFG", "app/NO_ARGS--all_kernels,NA")
                + section("GPGPU-Sim-build", ",", "APPS,CFG", "app/NO_ARGS--all_kernels,NA")
                + section(
                    "gpu_tot_sim_insn\\s*=\\s*(.*)",
                    ",",
                    "APPS,CFG",
                    "app/NO_ARGS--k--0,100.0",
                    "app/NO_ARGS--k--1,250.0",
                    "app/NO_ARGS--other--0,NA")
                + section(
                    "gpu_ipc\\s*=\\s*(.*)",
                    ",",
                    "APPS,CFG",
                    "app/NO_ARGS--k--0,0.3720",
                    "app/NO_ARGS--k--1,-nan",
                    "app/NO_ARGS--other--0,1.0"));
  }

  @Test
  void add_aKernelAfterOneWithoutTheStatisticTakesItsTotalWhole() throws IOException {
    GetStatsTable table = new GetStatsTable(small(), false);
    table.add(
        "a",
        "b",
        "C",
        log(
            "kernel_name = k",
            "gpu_tot_sim_insn = 100",
            "kernel_name = k",
            "kernel_name = k",
            "gpu_tot_sim_insn = 400",
            "GPGPU-Sim: *** exit detected ***"));

    assertThat(write(table, false))
        .contains("a/b--k--0,100.0\na/b--k--1,NA\na/b--k--2,400.0\n"); // as the script does
  }

  @Test
  void add_aKernelCutShortByTheLimitLosesItsValues() throws IOException {
    GetStatsTable table = new GetStatsTable(small(), false);
    table.add(
        "a",
        "b",
        "C",
        log(
            "kernel_name = k",
            "gpu_tot_sim_insn = 100",
            "kernel_name = k",
            "gpu_tot_sim_insn = 150",
            "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **",
            "GPGPU-Sim: *** exit detected ***"));

    assertThat(write(table, false)).contains("a/b--k--0,100.0\na/b--k--1,NA\n");
  }

  @Test
  void add_aLogThatDidNotFinishKeepsOnlyItsBuildsUnlessFailuresAreIgnored() throws IOException {
    String[] lines = {"Accel-Sim [build abc]", "kernel_name = k", "gpu_tot_sim_insn = 100"};
    GetStatsTable strict = new GetStatsTable(small(), false);
    GetStatsTable lenient = new GetStatsTable(small(), true);

    assertThat(strict.add("a", "b", "C", log(lines))).isFalse();
    assertThat(lenient.add("a", "b", "C", log(lines))).isFalse();
    assertThat(write(strict, false)).contains("a/b--all_kernels,abc\n").doesNotContain("k--0");
    assertThat(write(lenient, false)).contains("a/b--k--0,100.0\n");
  }

  @Test
  void read_rejectsALineOutsideTheListsNamingFileAndLine(@TempDir Path dir) throws IOException {
    Path yml = dir.resolve("stats.yml");
    Files.writeString(yml, "collect_abs:\n  - 'gpu_ipc\\s*=\\s*(.*)'\nwhat: is this\n");

    assertThatThrownBy(() -> GetStatsList.read(yml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(yml + ":3:")
        .hasMessageContaining("\"what: is this\"");
  }

  @Test
  void pythonFloats_printAsPythonDoes() {
    assertThat(PythonFloats.repr(72794.0)).isEqualTo("72794.0");
    assertThat(PythonFloats.repr(0.1)).isEqualTo("0.1");
    assertThat(PythonFloats.repr(1e16)).isEqualTo("1e+16");
    assertThat(PythonFloats.repr(1.5e-5)).isEqualTo("1.5e-05");
    assertThat(PythonFloats.repr(0.0001)).isEqualTo("0.0001");
    assertThat(PythonFloats.repr(-2.5)).isEqualTo("-2.5");
    assertThat(PythonFloats.repr(123456789012345678.0)).isEqualTo("1.2345678901234568e+17");
    assertThat(PythonFloats.parse("-nan").getAsDouble()).isNaN();
    assertThat(PythonFloats.parse("12 sec")).isEmpty();
  }

  private static GetStatsList small() {
    return new GetStatsList(
        List.of("gpu_tot_sim_insn\\s*=\\s*(.*)"), List.of("gpu_ipc\\s*=\\s*(.*)"), List.of());
  }

  private static GetStatsTable a100Table() throws IOException {
    GetStatsTable table = new GetStatsTable(GetStatsList.ACCEL_SIM_EXAMPLE, false);
    try (BufferedReader log = Files.newBufferedReader(A100_LOG, StandardCharsets.UTF_8)) {
      assertThat(table.add("gemm", "a", "SM80_A100", log)).isTrue();
    }
    return table;
  }

  private static String section(String stat, String commas, String header, String... rows) {
    StringBuilder text = new StringBuilder();
    text.append("-".repeat(100)).append(commas).append('\n');
    text.append(stat).append(commas).append('\n').append(header).append('\n');
    for (String row : rows) {
      text.append(row).append('\n');
    }
    return text.append('\n').toString();
  }

  private static BufferedReader log(String... lines) {
    return new BufferedReader(new StringReader(String.join("\n", lines) + "\n"));
  }

  private static String write(GetStatsTable table, boolean configsAsRows) throws IOException {
    StringBuilder out = new StringBuilder();
    table.write(out, configsAsRows);
    return out.toString();
  }

  private static void assumeFixtures() {
    Assumptions.assumeTrue(
        Files.isRegularFile(A100_LOG) && Files.isDirectory(STATS),
        "needs the fixtures at " + FIXTURES + " (beside the clone at ../shared/fixtures)");
  }
}
