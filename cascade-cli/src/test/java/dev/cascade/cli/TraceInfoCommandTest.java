package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceInfoCommandTest {

  private static final Path REAL_TRACES = CapturedCli.FIXTURES.resolve("accelsim/real-traces");

  private final CapturedCli cli = new CapturedCli();
  private final StringWriter out = cli.out;
  private final StringWriter err = cli.err;

  @TempDir Path dir;

  private int run(String... args) {
    return cli.run(args);
  }

  @Test
  void table_showsTheKernelCountAndOneRowPerKernel() {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_TRACES),
        "needs the fixture "
            + REAL_TRACES
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit = run("trace-info", REAL_TRACES.resolve("flashinfer-gemm").toString());

    assertThat(exit).isZero();
    assertThat(err.toString()).isEmpty();
    assertThat(out.toString())
        .contains("kernels       8\n")
        .contains("memcpys       0\n")
        .contains("size on disk  14.8 KiB\n")
        .doesNotContain("instructions");
    assertThat(out.toString().lines().filter(line -> line.contains("(256,1,1)"))).hasSize(2);
    String name =
        dev.cascade.core.KernelNames.system().canDemangle()
            ? "\\(anonymous namespace\\)::distribution_elemen…grid_stride_kernel<…>"
            : "_ZN2at6native54_GLOBAL__N__0d993ca2_21_DistributionNormal\\S*";
    assertThat(out.toString())
        .containsPattern(
            "\n  1   1  " + name + " +\\(1,1,1\\)  \\(256,1,1\\) +1  +80  +38  +0  3\\.6 KiB\n");
  }

  @Test
  void accelSim2TraceWithTwoContexts_saysSo_andCountsTheFirstContextsInstructions()
      throws IOException {
    Path fixture = CapturedCli.FIXTURES.resolve("accelsim/accelsim2/gemm-2ctx-c211/expected/text");
    Assumptions.assumeTrue(
        Files.isDirectory(fixture), "needs the fixture " + fixture + " (at ../shared/fixtures)");

    int exit = run("trace-info", "--instructions", fixture.toString());

    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains("kernels       2\n")
        .contains("contexts      2 (this is the first; the others: kernelslist_ctx_0x2.g)\n");
    out.getBuffer().setLength(0);
    assertThat(run("trace-info", "--json", fixture.toString())).isZero();
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("context_count").asInt()).isEqualTo(2);
    assertThat(json.get("other_contexts").get(0).asText()).endsWith("kernelslist_ctx_0x2.g");
  }

  @Test
  void instructions_countsEveryKernel() {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_TRACES),
        "needs the fixture "
            + REAL_TRACES
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");

    int exit =
        run("trace-info", "--instructions", REAL_TRACES.resolve("flashinfer-gemm").toString());

    assertThat(exit).isZero();
    assertThat(out.toString()).contains("warp insns    6451\n").contains(" 2531\n");
  }

  @Test
  void json_hasSnakeCaseKeysAndEveryHeaderField() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_TRACES),
        "needs the fixture "
            + REAL_TRACES
            + " (the real Accel-Sim files beside the clone, at ../shared/fixtures; a fresh clone has none, and these tests skip)");
    Path traces = Files.createDirectories(dir.resolve("traces"));
    Files.writeString(dir.resolve("metadata.json"), "{}\n");
    Path prefill = REAL_TRACES.resolve("flashinfer-prefill");
    Files.copy(prefill.resolve("kernelslist.g"), traces.resolve("kernelslist.g"));
    Files.copy(prefill.resolve("kernel-1.traceg.xz"), traces.resolve("kernel-1.traceg.xz"));

    int exit = run("trace-info", "--json", "--instructions", dir.toString());

    assertThat(exit).isZero();
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("kernel_count").asInt()).isEqualTo(1);
    assertThat(json.get("memcpy_count").asInt()).isZero();
    assertThat(json.get("instructions").asLong()).isEqualTo(29024);
    JsonNode kernel = json.get("kernels").get(0);
    assertThat(kernel.get("file").asText()).isEqualTo("kernel-1.traceg.xz");
    assertThat(kernel.get("grid").toString()).isEqualTo("[1,1,4]");
    assertThat(kernel.get("block").toString()).isEqualTo("[32,4,1]");
    assertThat(kernel.get("thread_blocks").asLong()).isEqualTo(4);
    assertThat(kernel.get("warps_per_block").asLong()).isEqualTo(4);
    assertThat(kernel.get("binary_version").asInt()).isEqualTo(80);
    assertThat(kernel.get("shmem").asLong()).isEqualTo(32768);
    assertThat(kernel.get("nregs").asInt()).isEqualTo(168);
    assertThat(kernel.get("instructions").asLong()).isEqualTo(29024);
    assertThat(kernel.get("header").get("shmem_base_addr").asText())
        .isEqualTo("0x00007f36e0000000");
    assertThat(kernel.get("name").asText()).startsWith("_ZN10flashinfer");
  }

  @Test
  void table_demanglesKernelNamesAsTheResultsDo() throws IOException {
    Assumptions.assumeTrue(
        dev.cascade.core.KernelNames.system().canDemangle(), "needs binutils' c++filt on PATH");
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(
        dir.resolve("kernel-1.traceg"),
        "-kernel name = _Z6reducePfi\n-kernel id = 1\n-grid dim = (2,1,1)\n"
            + "-block dim = (64,1,1)\n\n#traces\n");

    assertThat(run("trace-info", dir.toString())).isZero();
    assertThat(out.toString()).contains("  reduce(float*, int)  ").doesNotContain("_Z6");
  }

  @Test
  void json_listsMemcpys() throws IOException {
    Files.writeString(
        dir.resolve("kernelslist.g"), "MemcpyHtoD,0x00007f05ae000000,2048\nkernel-1.traceg\n");
    Files.writeString(
        dir.resolve("kernel-1.traceg"),
        "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n\n#traces\n");

    int exit = run("trace-info", "--json", dir.toString());

    assertThat(exit).isZero();
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("memcpys").get(0).get("address").asText()).isEqualTo("0x00007f05ae000000");
    assertThat(json.get("memcpys").get(0).get("bytes").asLong()).isEqualTo(2048);
    assertThat(json.get("kernels").get(0).has("instructions")).isFalse();
  }

  @Test
  void rawTraceOnly_failsWithOneLineSayingToPostprocess() throws IOException {
    Files.writeString(dir.resolve("kernelslist"), "kernel-1.trace\n");

    int exit = run("trace-info", dir.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .startsWith("cascade: " + dir + ": no kernelslist.g; only a raw 'kernelslist' is there")
        .contains("cascade postprocess")
        .hasLineCount(1);
  }

  @Test
  void badListLine_failsNamingFileAndLine() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\nwhat is this\n");

    int exit = run("trace-info", dir.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .startsWith("cascade: " + dir.resolve("kernelslist.g").toAbsolutePath() + ":2: 'what is")
        .hasLineCount(1);
  }

  @Test
  void missingFolder_failsSayingSo() {
    int exit = run("trace-info", dir.resolve("nope").toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo("cascade: " + dir.resolve("nope") + ": no such file or folder\n");
  }

  @Test
  void withoutDir_isAUsageError() {
    int exit = run("trace-info");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required parameter: 'DIR'");
  }

  @Test
  void sampling_showsThePlan_launchesOfOneKernelAndShapeStoodForByOne() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(REAL_TRACES),
        "needs the fixture " + REAL_TRACES + " (at ../shared/fixtures)");
    String gemm = REAL_TRACES.resolve("flashinfer-gemm").toString();

    assertThat(run("trace-info", gemm, "--sampling")).as(err.toString()).isZero();
    // kernels 1 and 2 are the same kernel, shape and instruction count: one stands for both
    assertThat(out.toString())
        .contains("sampling      estimated from 7 of 8 kernels (")
        .contains("simulated     kernels 1,3-8\n")
        .containsPattern("\n +1  \\S.* +1,1,1 +256,1,1 +2 +\\d+ +2\\.000 +0\\.00%\n");

    out.getBuffer().setLength(0);
    assertThat(run("trace-info", "--json", "--sampling=0.01", gemm)).isZero();
    JsonNode sampling = new ObjectMapper().readTree(out.toString()).get("sampling");
    assertThat(sampling.get("simulated_kernels").asInt()).isEqualTo(7);
    assertThat(sampling.get("request").get("target_error").asDouble()).isEqualTo(0.01);
    assertThat(sampling.get("strata").get(0).get("members").asText()).isEqualTo("1-2");
    assertThat(sampling.get("strata").get(0).get("weight").asDouble()).isEqualTo(2.0);

    assertThat(run("trace-info", "--sampling=0.9", gemm)).isEqualTo(2);
    assertThat(err.toString()).contains("target_error must be a fraction from 0.001 to 0.5");
  }
}
