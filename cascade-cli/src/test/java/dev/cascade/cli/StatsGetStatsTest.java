package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cascade stats --get-stats}: get_stats.py's own CSV for the real A100 log, its options. */
final class StatsGetStatsTest {

  private static final Path A100 =
      CapturedCli.FIXTURES.resolve("accelsim/real-logs/A100_flashinfer-gemm_8kernels.accelsim.log");
  private static final Path STATS = CapturedCli.FIXTURES.resolve("accelsim/stats");

  @TempDir Path folder;

  private final CapturedCli cli = new CapturedCli();

  @Test
  void getStats_printsTheScriptsOwnCsvByteForByte() throws IOException {
    assumeFixtures();

    int exit =
        cli.run(
            "stats",
            "--get-stats",
            "--app",
            "gemm",
            "--args",
            "a",
            "--config",
            "SM80_A100",
            A100.toString());
    String plain = cli.out.toString();
    cli.out.getBuffer().setLength(0);
    int transposed =
        cli.run(
            "stats",
            "--get-stats",
            "-R",
            "--app",
            "gemm",
            "--args",
            "a",
            "--config",
            "SM80_A100",
            A100.toString());

    assertThat(exit).isZero();
    assertThat(transposed).isZero();
    assertThat(plain).isEqualTo(read(STATS.resolve("get_stats_kK_A100_flashinfer-gemm.csv")));
    assertThat(cli.out.toString())
        .isEqualTo(read(STATS.resolve("get_stats_kKR_A100_flashinfer-gemm.csv")));
  }

  @Test
  void getStats_namesEachFileAfterItselfByDefaultAndWarnsOfAnUnfinishedLog() throws IOException {
    Path done =
        Files.writeString(
            folder.resolve("done.log"),
            "kernel_name = k\ngpu_tot_sim_insn = 7\nGPGPU-Sim: *** exit detected ***\n");
    Path cut =
        Files.writeString(folder.resolve("cut.log"), "kernel_name = k\ngpu_tot_sim_insn = 7\n");

    int exit = cli.run("stats", "--get-stats", done.toString(), cut.toString());

    assertThat(exit).isZero();
    assertThat(cli.out.toString())
        .contains("APPS,cascade\ndone.log/NO_ARGS--k--0,7.0\n\n")
        .contains("cut.log/NO_ARGS--all_kernels,NA\n")
        .doesNotContain("cut.log/NO_ARGS--k--0");
    assertThat(cli.err.toString())
        .contains("'" + cut + "' does not say 'exit detected' near its end");
  }

  @Test
  void getStatsOptions_withoutGetStats_areAUsageError() throws IOException {
    Path log = Files.writeString(folder.resolve("x.log"), "");

    assertThat(cli.run("stats", "-R", log.toString())).isEqualTo(2);
    assertThat(cli.err.toString()).contains("need --get-stats");
  }

  @Test
  void getStats_aMissingFileExitsOneAndTheOthersArePrinted() throws IOException {
    Path log = Files.writeString(folder.resolve("x.log"), "GPGPU-Sim: *** exit detected ***\n");
    Path missing = folder.resolve("missing.log");

    int exit = cli.run("stats", "--get-stats", missing.toString(), log.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(cli.err.toString()).contains("cannot read '" + missing + "': no such file");
    assertThat(cli.out.toString()).contains("x.log/NO_ARGS--all_kernels,NA");
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  private static void assumeFixtures() {
    Assumptions.assumeTrue(
        Files.isRegularFile(A100),
        "needs the fixtures at " + CapturedCli.FIXTURES + " (../shared/fixtures)");
  }
}
