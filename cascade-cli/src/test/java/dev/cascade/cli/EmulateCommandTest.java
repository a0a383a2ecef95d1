package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.accelsim.stats.LogSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EmulateCommandTest {

  private static final Path REAL_TRACES =
      Path.of(System.getProperty("cascade.fixtures", "../../shared/fixtures"))
          .resolve("accelsim/real-traces");

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @TempDir Path dir;

  private int run(String... args) {
    picocli.CommandLine commandLine = CascadeCommand.newCommandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  /** Two kernels of a few blocks, in the post-processed format. */
  private Path trace() throws IOException {
    Path trace = Files.createDirectories(dir.resolve("trace"));
    List<String> list = new ArrayList<>();
    for (int k = 1; k <= 2; k++) {
      StringBuilder text =
          new StringBuilder(
              "-kernel name = _Z6kernelv"
                  + k
                  + "\n-kernel id = "
                  + k
                  + "\n-grid dim = (4,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n-nregs = 24\n"
                  + "-binary version = 90\n-cuda stream id = 0\n\n#traces format = ...\n\n");
      for (int block = 0; block < 4; block++) {
        text.append("#BEGIN_TB\n\nthread block = ").append(block).append(",0,0\n");
        for (int warp = 0; warp < 2; warp++) {
          text.append("\nwarp = ").append(warp).append("\ninsts = 3\n");
          text.append("0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x7f00 4 0 \n");
          text.append("0010 ffffffff 1 R3 FFMA 2 R1 R1 0 0 \n");
          text.append("0020 ffffffff 0 EXIT 0 0 0 \n");
        }
        text.append("\n#END_TB\n");
      }
      Files.writeString(trace.resolve("kernel-" + k + ".traceg"), text);
      list.add("kernel-" + k + ".traceg");
    }
    Files.write(trace.resolve("kernelslist.g"), list, StandardCharsets.UTF_8);
    return trace;
  }

  @Test
  void emulate_printsAnAccelSimLogThatTheParserReads() throws Exception {
    int exit =
        run("emulate", "--trace", trace().toString(), "--config", "SM90_H100", "--speed", "0");

    assertThat(exit).as(err::toString).isZero();
    LogSummary summary = LogSummary.parse(out.toString());
    assertThat(summary.complete()).isTrue();
    assertThat(summary.kernels()).hasSize(2);
    assertThat(summary.kernels().getFirst().instructions()).isEqualTo(4L * 2 * 3 * 32);
    assertThat(out.toString()).startsWith("Accel-Sim [build cascade-emulator-");
  }

  private long totalCycles(String... args) throws Exception {
    out.getBuffer().setLength(0);
    assertThat(run(args)).as(err::toString).isZero();
    return LogSummary.parse(out.toString()).kernels().stream().mapToLong(k -> k.cycles()).sum();
  }

  @Test
  void sameOptions_sameOutput_otherReplica_sameCyclesUnlessJitter() throws Exception {
    String trace = trace().toString();
    run("emulate", "--trace", trace, "--config", "SM90_H100", "--speed", "0", "--replica", "1");
    String first = out.toString();
    out.getBuffer().setLength(0);
    run("emulate", "--trace", trace, "--config", "SM90_H100", "--speed", "0", "--replica", "1");
    String second = out.toString();
    String[] base = {"emulate", "--trace", trace, "--config", "SM90_H100", "--speed", "0"};

    assertThat(second).isEqualTo(first);
    assertThat(totalCycles(concat(base, "--replica", "2")))
        .isEqualTo(totalCycles(concat(base, "--replica", "1")));
    assertThat(totalCycles(concat(base, "--replica", "2", "--jitter")))
        .isNotEqualTo(totalCycles(concat(base, "--replica", "1", "--jitter")));
  }

  private static String[] concat(String[] base, String... more) {
    String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void injectedDeadlock_exitsLikeTheSimulator() throws Exception {
    int exit =
        run(
            "emulate",
            "--trace",
            trace().toString(),
            "--config",
            "SM90_H100",
            "--speed",
            "0",
            "--fail-at-kernel",
            "2");

    assertThat(exit).isEqualTo(1);
    assertThat(out.toString()).contains("ERROR ** deadlock detected");
  }

  @Test
  void realTrace_emulates() {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_TRACES),
        "needs the fixture "
            + REAL_TRACES
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit =
        run(
            "emulate",
            "--trace",
            REAL_TRACES.resolve("flashinfer-gemm").toString(),
            "--config",
            "SM90_H100",
            "--speed",
            "0");

    assertThat(exit).as(err::toString).isZero();
    assertThat(LogSummary.parse(out.toString()).kernels()).hasSize(8);
  }

  @Test
  void unknownConfig_isAFailureThatNamesTheChoices() throws Exception {
    int exit = run("emulate", "--trace", trace().toString(), "--config", "SM99_X", "--speed", "0");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).contains("unknown GPU config 'SM99_X'").contains("SM90_H100");
  }

  @Test
  void badOptions_areUsageErrors() throws Exception {
    assertThat(
            run("emulate", "--trace", trace().toString(), "--config", "SM90_H100", "--speed", "x"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--speed must be a number");
    assertThat(run("emulate", "--trace", "t", "--config", "c", "--fleet", "3")).isEqualTo(2);
    assertThat(err.toString()).contains("--fleet needs --sims FILE");
    assertThat(run("emulate", "--trace", "t", "--config", "c", "--max-in-flight", "8"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--max-in-flight only go with --fleet N");
  }

  @Test
  void fleetMaxInFlightBelowOne_isAUsageErrorNamingTheValue() throws Exception {
    Path members = dir.resolve("sims.txt");
    Files.writeString(members, "s_1 t1\n");
    int exit =
        run(
            "emulate",
            "--trace",
            trace().toString(),
            "--config",
            "SM90_H100",
            "--fleet",
            "1",
            "--sims",
            members.toString(),
            "--url",
            "http://127.0.0.1:9",
            "--max-in-flight",
            "0");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("requests in flight must be 1 or more; got 0");
  }
}
