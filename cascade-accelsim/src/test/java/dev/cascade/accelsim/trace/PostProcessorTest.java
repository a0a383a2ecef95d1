package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.GEMM;
import static dev.cascade.accelsim.trace.TraceFixtures.PAIR;
import static dev.cascade.accelsim.trace.TraceFixtures.PREFILL;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeFixtures;
import static dev.cascade.accelsim.trace.TraceFixtures.rawFromProcessed;
import static dev.cascade.accelsim.trace.TraceFixtures.readAll;
import static dev.cascade.accelsim.trace.TraceFixtures.readText;
import static dev.cascade.accelsim.trace.TraceFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class PostProcessorTest {

  private static final String FORMAT =
      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs]"
          + " mem_width [adrrescompress?] [mem_addresses] immediate";

  @TempDir Path dir;

  @Test
  void postprocess_matchesAccelSimByteForByte() throws IOException {
    assumeFixtures();
    Files.copy(PAIR.resolve("kernelslist"), dir.resolve("kernelslist"));
    Files.copy(PAIR.resolve("kernel-1.trace"), dir.resolve("kernel-1.trace"));

    PostProcessor.Result result = PostProcessor.builder().build().process(dir);

    assertThat(dir.resolve("kernelslist.g"))
        .hasBinaryContent(readAll(PAIR.resolve("kernelslist.g")));
    assertThat(dir.resolve("kernel-1.traceg"))
        .hasBinaryContent(readAll(PAIR.resolve("kernel-1.traceg")));
    assertThat(result.kernels())
        .singleElement()
        .satisfies(
            kernel -> {
              assertThat(kernel.threadBlocks()).isEqualTo(1);
              assertThat(kernel.warpsPerBlock()).isEqualTo(1);
              assertThat(kernel.instructions()).isEqualTo(5);
              assertThat(kernel.textBytes()).isEqualTo(Files.size(PAIR.resolve("kernel-1.traceg")));
            });
    assertThat(result.kernelsList()).isEqualTo(dir.resolve("kernelslist.g").toAbsolutePath());
  }

  @Test
  void postprocess_rebuildsRealTracegFromItsRawForm() throws IOException {
    assumeFixtures();
    String traceg = readText(PREFILL.resolve("kernel-1.traceg.xz"));
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), rawFromProcessed(traceg));

    PostProcessor.Result result = PostProcessor.builder().build().process(dir);

    assertThat(readText(dir.resolve("kernel-1.traceg"))).isEqualTo(traceg);
    PostProcessor.KernelResult kernel = result.kernels().getFirst();
    assertThat(kernel.threadBlocks()).isEqualTo(4);
    assertThat(kernel.warpsPerBlock()).isEqualTo(4);
    assertThat(kernel.instructions()).isEqualTo(29024);
    assertThat(kernel.droppedLdgsts()).isEqualTo(384);
  }

  @Test
  void postprocess_xzInputGivesXzOutputWithTheSameText() throws IOException {
    assumeFixtures();
    String traceg = readText(PREFILL.resolve("kernel-1.traceg.xz"));
    write(dir.resolve("kernelslist"), "kernel-1.trace.xz\n");
    write(dir.resolve("kernel-1.trace.xz"), rawFromProcessed(traceg));

    PostProcessor.builder().build().process(dir);

    assertThat(dir.resolve("kernelslist.g")).hasContent("kernel-1.traceg.xz");
    assertThat(dir.resolve("kernel-1.traceg")).doesNotExist();
    byte[] compressed = Files.readAllBytes(dir.resolve("kernel-1.traceg.xz"));
    assertThat(compressed).startsWith(0xFD, '7', 'z', 'X', 'Z', 0);
    assertThat(readText(dir.resolve("kernel-1.traceg.xz"))).isEqualTo(traceg);
  }

  @Test
  void postprocess_spillingToDiskGivesTheSameBytes() throws IOException {
    assumeFixtures();
    String traceg = readText(PREFILL.resolve("kernel-1.traceg.xz"));
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), rawFromProcessed(traceg));

    PostProcessor.Result spilled =
        PostProcessor.builder().bufferBytesPerKernel(64 << 10).build().process(dir);
    assertThat(readText(dir.resolve("kernel-1.traceg"))).isEqualTo(traceg);
    assertThat(spilled.kernels().getFirst().spillRuns()).isGreaterThan(10);

    PostProcessor.Result merged =
        PostProcessor.builder().bufferBytesPerKernel(64 << 10).maxSpillRuns(3).build().process(dir);
    assertThat(readText(dir.resolve("kernel-1.traceg"))).isEqualTo(traceg);
    assertThat(merged.kernels().getFirst().spillRuns()).isGreaterThan(10);

    assertThat(listNames(dir))
        .containsExactlyInAnyOrder(
            "kernelslist", "kernel-1.trace", "kernelslist.g", "kernel-1.traceg");
  }

  @Test
  void postprocess_realMultiKernelTrace_givesTheSameBytesInMemoryAndWhenSpilling()
      throws IOException {
    assumeFixtures();
    List<String> tracegs = new ArrayList<>();
    StringBuilder list = new StringBuilder();
    for (int k = 1; k <= 8; k++) {
      String traceg = readText(GEMM.resolve("kernel-" + k + ".traceg.xz"));
      tracegs.add(traceg);
      write(dir.resolve("kernel-" + k + ".trace.xz"), rawFromProcessed(traceg));
      list.append("kernel-").append(k).append(".trace.xz\n");
    }
    write(dir.resolve("kernelslist"), list.toString());

    PostProcessor.Result inMemory = PostProcessor.builder().build().process(dir);
    assertMatchesGemm(tracegs);
    PostProcessor.Result spilled =
        PostProcessor.builder().parallelism(3).bufferBytesPerKernel(16 << 10).build().process(dir);
    assertMatchesGemm(tracegs);

    // kernel-1 is 115 KB of text: it fits the default buffer and not a 16 KiB one.
    assertThat(inMemory.kernels().getFirst().spillRuns()).isZero();
    assertThat(spilled.kernels().getFirst().spillRuns()).isGreaterThanOrEqualTo(2);
  }

  private void assertMatchesGemm(List<String> tracegs) throws IOException {
    assertThat(dir.resolve("kernelslist.g"))
        .hasBinaryContent(readAll(GEMM.resolve("kernelslist.g")));
    for (int k = 1; k <= tracegs.size(); k++) {
      assertThat(readText(dir.resolve("kernel-" + k + ".traceg.xz")))
          .as("kernel-%d.traceg.xz", k)
          .isEqualTo(tracegs.get(k - 1));
    }
  }

  @Test
  void builder_defaultBuffer_is64MiBSharedByTheParallelKernels_whateverTheHeap() {
    assertThat(PostProcessor.builder().parallelism(1).build().bufferBytesPerKernel())
        .isEqualTo(64L << 20);
    assertThat(PostProcessor.builder().parallelism(2).build().bufferBytesPerKernel())
        .isEqualTo(32L << 20);
    assertThat(PostProcessor.builder().parallelism(64).build().bufferBytesPerKernel())
        .isEqualTo(8L << 20);
  }

  @Test
  void postprocess_writesThreadBlocksInAscendingLinearIdWhateverTheInputOrder() throws IOException {
    String raw =
        header("(2,2,1)", "(32,1,1)")
            + "1 1 0 0 0010 ffffffff 0 EXIT 0 0 3 \n"
            + "0 0 0 0 0010 ffffffff 0 EXIT 0 0 0 \n"
            + "0 1 0 0 0010 ffffffff 0 EXIT 0 0 2 \n"
            + "1 0 0 0 0010 ffffffff 0 EXIT 0 0 1 \n";

    assertThat(postprocess(raw))
        .isEqualTo(
            header("(2,2,1)", "(32,1,1)")
                + "\n"
                + block("0,0,0", warp(0, "0010 ffffffff 0 EXIT 0 0 0 "))
                + block("1,0,0", warp(0, "0010 ffffffff 0 EXIT 0 0 1 "))
                + block("0,1,0", warp(0, "0010 ffffffff 0 EXIT 0 0 2 "))
                + block("1,1,0", warp(0, "0010 ffffffff 0 EXIT 0 0 3 ")));
  }

  @Test
  void postprocess_ordersA3dGridByZThenYThenX_andOmitsBlocksWithoutLines() throws IOException {
    String raw =
        header("(2,2,2)", "(32,1,1)")
            + "1 0 1 0 0010 ffffffff 0 EXIT 0 0 5 \n"
            + "0 1 0 0 0010 ffffffff 0 EXIT 0 0 2 \n"
            + "1 1 1 0 0010 ffffffff 0 EXIT 0 0 7 \n"
            + "0 0 1 0 0010 ffffffff 0 EXIT 0 0 4 \n";

    assertThat(postprocess(raw))
        .isEqualTo(
            header("(2,2,2)", "(32,1,1)")
                + "\n"
                + block("0,1,0", warp(0, "0010 ffffffff 0 EXIT 0 0 2 "))
                + block("0,0,1", warp(0, "0010 ffffffff 0 EXIT 0 0 4 "))
                + block("1,0,1", warp(0, "0010 ffffffff 0 EXIT 0 0 5 "))
                + block("1,1,1", warp(0, "0010 ffffffff 0 EXIT 0 0 7 ")));
  }

  @Test
  void postprocess_writesEveryWarpOfABlock_evenWithoutInstructions() throws IOException {
    // 65 threads: ceil(65 / 32) = 3 warps; only warp 1 has instructions.
    String raw =
        header("(1,1,1)", "(65,1,1)")
            + "0 0 0 1 0000 ffffffff 1 R1 MOV 0 0 \n"
            + "0 0 0 1 0010 ffffffff 0 EXIT 0 0 \n";

    assertThat(postprocess(raw))
        .isEqualTo(
            header("(1,1,1)", "(65,1,1)")
                + "\n"
                + block(
                    "0,0,0",
                    warp(0),
                    warp(1, "0000 ffffffff 1 R1 MOV 0 0 ", "0010 ffffffff 0 EXIT 0 0 "),
                    warp(2)));
  }

  @Test
  void postprocess_dropsTheFirstOfEachLdgstsPairPerThreadBlockAndWarp() throws IOException {
    String raw =
        header("(2,1,1)", "(64,1,1)")
            + "0 0 0 0 0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x7000 shared-a1 \n"
            + "0 0 0 1 0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x7000 shared-b1 \n"
            + "0 0 0 0 0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x9000 global-a1 \n"
            + "1 0 0 0 0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x7000 shared-c1 \n"
            + "0 0 0 1 0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x9000 global-b1 \n"
            + "0 0 0 0 0110 ffffffff 1 R2 LDGSTS.E 2 R9 R10 16 1 0x7100 shared-a2 \n"
            + "0 0 0 0 0120 ffffffff 0 IADD3 3 R1 R2 R3 0 0 \n"
            + "0 0 0 0 0110 ffffffff 1 R2 LDGSTS.E 2 R9 R10 16 1 0x9100 global-a2 \n";

    assertThat(postprocess(raw))
        .isEqualTo(
            header("(2,1,1)", "(64,1,1)")
                + "\n"
                + block(
                    "0,0,0",
                    warp(
                        0,
                        "0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x9000 global-a1 ",
                        "0120 ffffffff 0 IADD3 3 R1 R2 R3 0 0 ",
                        "0110 ffffffff 1 R2 LDGSTS.E 2 R9 R10 16 1 0x9100 global-a2 "),
                    warp(1, "0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x9000 global-b1 "))
                // Block 1,0,0 had only a dropped line: the C++ tool still writes it, empty.
                + block("1,0,0", warp(0), warp(1)));
  }

  @Test
  void postprocess_headerLineAmongInstructions_restartsLdgstsPairing_asTheCppToolDoes()
      throws IOException {
    String raw =
        header("(1,1,1)", "(32,1,1)")
            + "0 0 0 0 0100 ffffffff 0 LDGSTS.E 2 R9 R10 16 1 0x7000 shared-1 \n"
            + "-a late header line = resets every LDGSTS flag\n"
            + "0 0 0 0 0100 ffffffff 0 LDGSTS.E 2 R9 R10 16 1 0x9000 global-1 \n"
            + "0 0 0 0 0100 ffffffff 0 LDGSTS.E 2 R9 R10 16 1 0x7100 shared-2 \n"
            + "0 0 0 0 0100 ffffffff 0 LDGSTS.E 2 R9 R10 16 1 0x9100 global-2 \n";

    assertThat(postprocess(raw))
        .isEqualTo(
            header("(1,1,1)", "(32,1,1)")
                + "-a late header line = resets every LDGSTS flag\n"
                + "\n"
                + block(
                    "0,0,0", warp(0, "0100 ffffffff 0 LDGSTS.E 2 R9 R10 16 1 0x7100 shared-2 ")));
  }

  @Test
  void postprocess_echoesEmptyCommentAndHeaderLinesInInputOrder() throws IOException {
    String raw =
        "-kernel name = k\n"
            + "-grid dim = (1,1,1)\n"
            + "\n"
            + "0 0 0 0 0010 ffffffff 0 NOP 0 0 \n"
            + "# a comment between instructions\n"
            + "-block dim = (32,1,1)\n"
            + "\n"
            + "0 0 0 0 0020 ffffffff 0 EXIT 0 0 \n";

    // The block dim comes after an instruction: the C++ tool would crash; Cascade refuses.
    assertThatThrownBy(() -> postprocess(raw))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("kernel-1.trace:4: ")
        .hasMessageContaining("'-grid dim' and '-block dim'");

    String valid =
        "-kernel name = k\n"
            + "-grid dim = (1,1,1)\n"
            + "-block dim = (32,1,1)\n"
            + "\n"
            + "0 0 0 0 0010 ffffffff 0 NOP 0 0 \n"
            + "# a comment between instructions\n"
            + "-some later = header\n"
            + "\n"
            + "0 0 0 0 0020 ffffffff 0 EXIT 0 0 \n";
    assertThat(postprocess(valid))
        .isEqualTo(
            "-kernel name = k\n"
                + "-grid dim = (1,1,1)\n"
                + "-block dim = (32,1,1)\n"
                + "\n"
                + "# a comment between instructions\n"
                + "-some later = header\n"
                + "\n"
                + "\n"
                + block("0,0,0", warp(0, "0010 ffffffff 0 NOP 0 0 ", "0020 ffffffff 0 EXIT 0 0 ")));
  }

  @Test
  void postprocess_inputWithoutFinalNewline_hasNoFinalEmptyLine() throws IOException {
    String raw = header("(1,1,1)", "(32,1,1)") + "0 0 0 0 0010 ffffffff 0 EXIT 0 0 ";

    assertThat(postprocess(raw))
        .isEqualTo(
            header("(1,1,1)", "(32,1,1)") + block("0,0,0", warp(0, "0010 ffffffff 0 EXIT 0 0 ")));
  }

  @Test
  void postprocess_writesKernelslistGWithMemcpysAndRenamedKernelsInOrder() throws IOException {
    write(
        dir.resolve("kernelslist"),
        "MemcpyHtoD,0x00007f05ae000000,2048\n"
            + "kernel-1.trace\n"
            + "\n"
            + "MemcpyHtoD,0x00007f05ae001000,4096\n"
            + "kernel-2.trace.xz\n"
            + "kernel-3.trace\n");
    for (int i = 1; i <= 3; i++) {
      String name = i == 2 ? "kernel-2.trace.xz" : "kernel-" + i + ".trace";
      write(
          dir.resolve(name),
          header("(" + i + ",1,1)", "(32,1,1)") + "0 0 0 0 0010 ffffffff 0 EXIT 0 0 " + i + " \n");
    }
    List<Path> finished = new CopyOnWriteArrayList<>();

    PostProcessor.Result result =
        PostProcessor.builder()
            .parallelism(3)
            .listener(
                new PostProcessor.Listener() {
                  @Override
                  public void kernelFinished(PostProcessor.KernelResult kernel) {
                    finished.add(kernel.output().getFileName());
                  }
                })
            .build()
            .process(dir);

    assertThat(dir.resolve("kernelslist.g"))
        .hasContent(
            "MemcpyHtoD,0x00007f05ae000000,2048\n"
                + "kernel-1.traceg\n"
                + "MemcpyHtoD,0x00007f05ae001000,4096\n"
                + "kernel-2.traceg.xz\n"
                + "kernel-3.traceg");
    assertThat(result.memcpyCount()).isEqualTo(2);
    assertThat(result.kernels())
        .extracting(kernel -> kernel.output().getFileName().toString())
        .containsExactly("kernel-1.traceg", "kernel-2.traceg.xz", "kernel-3.traceg");
    assertThat(finished)
        .extracting(Path::toString)
        .containsExactlyInAnyOrder("kernel-1.traceg", "kernel-2.traceg.xz", "kernel-3.traceg");
    assertThat(readText(dir.resolve("kernel-2.traceg.xz")))
        .isEqualTo(
            header("(2,1,1)", "(32,1,1)")
                + "\n"
                + block("0,0,0", warp(0, "0010 ffffffff 0 EXIT 0 0 2 ")));
  }

  @Test
  void postprocess_acceptsACascadeTraceFolder() throws IOException {
    Path traces = Files.createDirectories(dir.resolve("traces"));
    write(dir.resolve("metadata.json"), "{\"status\": \"done\"}\n");
    write(traces.resolve("kernelslist"), "kernel-1.trace\n");
    write(
        traces.resolve("kernel-1.trace"),
        header("(1,1,1)", "(32,1,1)") + "0 0 0 0 00 f 0 X 0 0 \n");

    PostProcessor.Result result = PostProcessor.builder().build().process(dir);

    assertThat(result.kernelsList()).isEqualTo(traces.resolve("kernelslist.g").toAbsolutePath());
    assertThat(traces.resolve("kernel-1.traceg")).exists();
  }

  @Test
  void postprocess_malformedLine_failsNamingFileAndLine_andLeavesNothingBehind()
      throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\nkernel-2.trace\n");
    write(
        dir.resolve("kernel-1.trace"), header("(1,1,1)", "(32,1,1)") + "0 0 0 0 0010 f 0 X 0 0 \n");
    write(
        dir.resolve("kernel-2.trace"),
        header("(1,1,1)", "(32,1,1)")
            + "0 0 0 0 0010 f 0 X 0 0 \n"
            + "0 0 zero 0 0010 f 0 X 0 0\n");

    assertThatThrownBy(() -> PostProcessor.builder().parallelism(1).build().process(dir))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(dir.resolve("kernel-2.trace").toAbsolutePath() + ":11: ")
        .hasMessageContaining("'0 0 zero 0 0010 f 0 X 0 0'")
        .hasMessageContaining("four numbers");

    // kernel-1 finished and stays; kernel-2 and kernelslist.g were never written; no temp files.
    assertThat(listNames(dir))
        .containsExactlyInAnyOrder(
            "kernelslist", "kernel-1.trace", "kernel-2.trace", "kernel-1.traceg");
  }

  @Test
  void postprocess_threadBlockOutsideTheGrid_fails() throws IOException {
    String raw = header("(2,1,1)", "(32,1,1)") + "2 0 0 0 0010 f 0 X 0 0 \n";

    assertThatThrownBy(() -> postprocess(raw))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(
            "kernel-1.trace:10: thread block (2,0,0) is outside the grid (2,1,1)");
  }

  @Test
  void postprocess_warpPastTheBlock_fails() throws IOException {
    String raw = header("(1,1,1)", "(64,1,1)") + "0 0 0 2 0010 f 0 X 0 0 \n";

    assertThatThrownBy(() -> postprocess(raw))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("kernel-1.trace:10: warp 2 is past the 2 warps");
  }

  @Test
  void postprocess_listNamingAMissingFile_failsBeforeWritingAnything() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\nkernel-2.trace\n");
    write(dir.resolve("kernel-1.trace"), header("(1,1,1)", "(32,1,1)"));

    assertThatThrownBy(() -> PostProcessor.builder().build().process(dir))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(
            "kernelslist:2: the list names 'kernel-2.trace', which is not a file");
    assertThat(listNames(dir)).containsExactlyInAnyOrder("kernelslist", "kernel-1.trace");
  }

  @Test
  void postprocess_listOfProcessedTraces_fails() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.traceg\n");

    assertThatThrownBy(() -> PostProcessor.builder().build().process(dir))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("kernelslist:1: 'kernel-1.traceg' is not a raw trace");
  }

  @Test
  void postprocess_folderWithoutRawList_failsSayingSo() {
    assertThatThrownBy(() -> PostProcessor.builder().build().process(dir))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("no raw 'kernelslist'");
    assertThatThrownBy(() -> PostProcessor.builder().build().process(dir.resolve("nope")))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("no such file or folder");
  }

  @Test
  void postprocess_replacesAnOlderOutput() throws IOException {
    write(dir.resolve("kernel-1.traceg"), "stale\n");
    String raw = header("(1,1,1)", "(32,1,1)") + "0 0 0 0 0010 f 0 X 0 0 \n";

    assertThat(postprocess(raw)).startsWith("-kernel name = _Z6kernelv\n").doesNotContain("stale");
  }

  @Test
  void processedName_mapsTraceToTracegKeepingXz() {
    assertThat(PostProcessor.processedName("kernel-1.trace")).isEqualTo("kernel-1.traceg");
    assertThat(PostProcessor.processedName("kernel-12.trace.xz")).isEqualTo("kernel-12.traceg.xz");
    assertThatThrownBy(() -> PostProcessor.processedName("kernel-1.txt"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'kernel-1.txt'");
  }

  @Test
  void builder_rejectsBadValues() {
    assertThatThrownBy(() -> PostProcessor.builder().parallelism(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parallelism must be at least 1, not 0");
    assertThatThrownBy(() -> PostProcessor.builder().bufferBytesPerKernel(10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not 10");
    assertThatThrownBy(() -> PostProcessor.builder().xzPreset(10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("xzPreset must be 0 to 9, not 10");
  }

  private String postprocess(String raw) throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), raw);
    PostProcessor.builder().build().process(dir);
    return readText(dir.resolve("kernel-1.traceg"));
  }

  /**
   * Six header lines, an empty line, the format line and an empty line: instructions from line 10.
   */
  private static String header(String grid, String block) {
    return "-kernel name = _Z6kernelv\n"
        + "-kernel id = 1\n"
        + "-grid dim = "
        + grid
        + "\n"
        + "-block dim = "
        + block
        + "\n"
        + "-binary version = 90\n"
        + "-accelsim tracer version = 5\n"
        + "\n"
        + FORMAT
        + "\n"
        + "\n";
  }

  private static String block(String coordinates, String... warps) {
    return "\n#BEGIN_TB\n\nthread block = "
        + coordinates
        + "\n"
        + String.join("", warps)
        + "\n#END_TB\n";
  }

  private static String warp(int index, String... lines) {
    StringBuilder text =
        new StringBuilder("\nwarp = " + index + "\ninsts = " + lines.length + "\n");
    for (String line : lines) {
      text.append(line).append('\n');
    }
    return text.toString();
  }

  private static List<String> listNames(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(file -> file.getFileName().toString()).toList();
    }
  }
}
