package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

final class PostprocessCommandTest {

  private static final Path PAIR =
      CapturedCli.FIXTURES.resolve("accelsim/real-traces/synthetic-r1-postproc-pair");

  private final CapturedCli cli = new CapturedCli();
  private final StringWriter out = cli.out;
  private final StringWriter err = cli.err;

  @TempDir Path dir;

  private int run(String... args) {
    return cli.run(args);
  }

  @Test
  void postprocess_writesWhatAccelSimWrites_andSaysWhatItWrote() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(PAIR),
        "needs the fixture "
            + PAIR
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
    Files.copy(PAIR.resolve("kernelslist"), dir.resolve("kernelslist"));
    Files.copy(PAIR.resolve("kernel-1.trace"), dir.resolve("kernel-1.trace"));

    int exit = run("postprocess", dir.toString());

    assertThat(exit).isZero();
    assertThat(dir.resolve("kernel-1.traceg"))
        .hasSameBinaryContentAs(PAIR.resolve("kernel-1.traceg"));
    assertThat(dir.resolve("kernelslist.g")).hasSameBinaryContentAs(PAIR.resolve("kernelslist.g"));
    Path absolute = dir.toAbsolutePath();
    assertThat(out.toString())
        .startsWith(
            "wrote "
                + absolute.resolve("kernel-1.traceg")
                + " (1 thread block, 5 instructions, 704 B, ")
        .contains("\nwrote " + absolute.resolve("kernelslist.g") + " (1 kernel, 0 memcpys) in ");
    assertThat(err.toString())
        .startsWith("postprocess: [1] kernel-1.trace -> kernel-1.traceg: 1 thread block,")
        .hasLineCount(1);
  }

  @Test
  void postprocess_accelSim2TwoContexts_writesBothListsAsUpstream() throws IOException {
    Path fixture = CapturedCli.FIXTURES.resolve("accelsim/accelsim2/gemm-2ctx-c211");
    Assumptions.assumeTrue(
        Files.isDirectory(fixture), "needs the fixture " + fixture + " (at ../shared/fixtures)");
    try (var files = Files.list(fixture.resolve("input"))) {
      for (Path file : files.toList()) {
        Files.copy(file, dir.resolve(file.getFileName()));
      }
    }

    int exit = run("postprocess", dir.toString());

    assertThat(exit).isZero();
    Path expected = fixture.resolve("expected/text");
    assertThat(dir.resolve("kernelslist.g"))
        .hasSameBinaryContentAs(expected.resolve("kernelslist.g"));
    assertThat(dir.resolve("kernelslist_ctx_0x2.g"))
        .hasSameBinaryContentAs(expected.resolve("kernelslist_ctx_0x2.g"));
    assertThat(dir.resolve("kernel-7-ctx_0x2.traceg"))
        .hasSameBinaryContentAs(expected.resolve("kernel-7-ctx_0x2.traceg"));
    assertThat(out.toString())
        .contains("Accel-Sim 2.0 trace (11 ids)")
        .contains(
            "wrote "
                + dir.toAbsolutePath().resolve("kernelslist_ctx_0x2.g")
                + " (another CUDA context's list)\n");
  }

  @Test
  void postprocess_formatTracez_writesTracezThatTraceInfoReads() throws IOException {
    Files.writeString(dir.resolve("kernelslist"), "kernel-1.trace\n");
    Files.writeString(
        dir.resolve("kernel-1.trace"),
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n\n"
            + "0 0 0 0 0 0 0 0 0 0 0 0000 ffffffff 0 EXIT 0 0 0 \n");

    assertThat(run("postprocess", "--format", "tracez", dir.toString())).isZero();

    assertThat(dir.resolve("kernelslist.g")).hasContent("kernel-1.tracez");
    assertThat(dir.resolve("kernel-1.tracez")).exists();
    assertThat(run("trace-info", "--instructions", dir.toString())).isZero();
    assertThat(out.toString()).contains("warp insns    1\n");
    assertThat(run("postprocess", "--format", "zip", dir.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--format must be text or tracez, not 'zip'");
  }

  @Test
  void postprocess_thenTraceInfo_readsTheResult() throws IOException {
    Files.writeString(dir.resolve("kernelslist"), "MemcpyHtoD,0x10,64\nkernel-1.trace.xz\n");
    writeXz(
        dir.resolve("kernel-1.trace.xz"),
        "-kernel name = _Z3addv\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n\n"
            + "#traces format\n\n"
            + "1 0 0 1 0010 ffffffff 0 EXIT 0 0 \n"
            + "0 0 0 0 0010 ffffffff 0 EXIT 0 0 \n");

    assertThat(run("postprocess", "--jobs", "1", dir.toString())).isZero();
    assertThat(run("trace-info", "--json", "--instructions", dir.toString())).isZero();

    String json = out.toString().substring(out.toString().indexOf("{"));
    JsonNode info = new ObjectMapper().readTree(json);
    assertThat(info.get("kernel_count").asInt()).isEqualTo(1);
    assertThat(info.get("memcpy_count").asInt()).isEqualTo(1);
    assertThat(info.get("kernels").get(0).get("file").asText()).isEqualTo("kernel-1.traceg.xz");
    assertThat(info.get("kernels").get(0).get("instructions").asLong()).isEqualTo(2);
  }

  @Test
  void json_describesEveryKernel() throws IOException {
    Files.writeString(dir.resolve("kernelslist"), "kernel-1.trace\nkernel-2.trace\n");
    for (int i = 1; i <= 2; i++) {
      Files.writeString(
          dir.resolve("kernel-" + i + ".trace"),
          "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n\n"
              + "0 0 0 0 0010 ffffffff 0 LDGSTS.E 0 0 \n".repeat(2 * i));
    }

    int exit = run("postprocess", "--json", dir.toString());

    assertThat(exit).isZero();
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("kernels_list").asText())
        .isEqualTo(dir.resolve("kernelslist.g").toAbsolutePath().toString());
    assertThat(json.get("kernels")).hasSize(2);
    JsonNode second = json.get("kernels").get(1);
    assertThat(second.get("output").asText()).endsWith("kernel-2.traceg");
    assertThat(second.get("instructions").asLong()).isEqualTo(2);
    assertThat(second.get("dropped_ldgsts").asLong()).isEqualTo(2);
    assertThat(second.get("size_on_disk").asLong())
        .isEqualTo(Files.size(dir.resolve("kernel-2.traceg")));
    assertThat(err.toString()).hasLineCount(2);
  }

  @Test
  void malformedTrace_failsWithOneLineNamingFileAndLine() throws IOException {
    Files.writeString(dir.resolve("kernelslist"), "kernel-1.trace\n");
    Files.writeString(
        dir.resolve("kernel-1.trace"),
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n\n1 0 0 0 0010 f 0 X 0 0 \n");

    int exit = run("postprocess", dir.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "cascade: "
                + dir.resolve("kernel-1.trace").toAbsolutePath()
                + ":5: thread block (1,0,0) is outside the grid (1,1,1) of the '-grid dim'"
                + " header\n");
    assertThat(dir.resolve("kernelslist.g")).doesNotExist();
    assertThat(dir.resolve("kernel-1.traceg")).doesNotExist();
  }

  @Test
  void missingFolder_failsSayingSo() {
    int exit = run("postprocess", dir.resolve("nope").toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo("cascade: " + dir.resolve("nope") + ": no such file or folder\n");
  }

  @Test
  void zeroJobs_isAUsageError() {
    int exit = run("postprocess", "--jobs", "0", dir.toString());

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("--jobs must be at least 1, not 0");
  }

  private static void writeXz(Path file, String text) throws IOException {
    try (XZOutputStream xz = new XZOutputStream(Files.newOutputStream(file), new LZMA2Options(1))) {
      xz.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
