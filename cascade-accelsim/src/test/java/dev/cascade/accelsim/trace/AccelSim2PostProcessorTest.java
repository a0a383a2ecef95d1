package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.ACCELSIM2;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeAccelSim2Fixture;
import static dev.cascade.accelsim.trace.TraceFixtures.copyFiles;
import static dev.cascade.accelsim.trace.TraceFixtures.readText;
import static dev.cascade.accelsim.trace.TraceFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Raw traces of Accel-Sim 2.0's tracer (11 ids, per-context lists), post-processed as upstream. */
final class AccelSim2PostProcessorTest {

  private static final String HEADER =
      """
      -kernel name = k
      -kernel id = 1
      -grid dim = (2,1,1)
      -block dim = (32,1,1)
      -accelsim tracer version = 6
      -enable lineinfo = 0

      #traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate

      """;

  @TempDir Path dir;

  @Test
  void postprocess_elevenIdsTwoContexts_matchesAccelSim2ByteForByte() throws IOException {
    assumeAccelSim2Fixture();
    copyFiles(ACCELSIM2.resolve("input"), dir);

    PostProcessor.Result result = PostProcessor.builder().parallelism(1).build().process(dir);

    Path expected = ACCELSIM2.resolve("expected/text");
    for (String name :
        List.of(
            "kernelslist.g",
            "kernelslist_ctx_0x2.g",
            "kernel-1-ctx_0x1.traceg",
            "kernel-3-ctx_0x1.traceg",
            "kernel-7-ctx_0x2.traceg")) {
      assertThat(dir.resolve(name)).as(name).hasSameBinaryContentAs(expected.resolve(name));
    }
    assertThat(result.rawKernelsList().getFileName()).hasToString("kernelslist_ctx_0x1");
    assertThat(result.kernelsLists())
        .extracting(path -> path.getFileName().toString())
        .containsExactly("kernelslist.g", "kernelslist_ctx_0x2.g");
    assertThat(result.kernels()).hasSize(3).allMatch(k -> k.ids() == RawIds.ELEVEN);
  }

  @Test
  void countInstructions_rawElevenIds_agreesWithTheProcessedTrace() throws IOException {
    assumeAccelSim2Fixture();
    for (String kernel : List.of("kernel-1-ctx_0x1", "kernel-3-ctx_0x1", "kernel-7-ctx_0x2")) {
      assertThat(TraceReader.countInstructions(ACCELSIM2.resolve("input/" + kernel + ".trace")))
          .as(kernel)
          .isEqualTo(
              TraceReader.countInstructions(
                  ACCELSIM2.resolve("expected/text/" + kernel + ".traceg")));
    }
  }

  @Test
  void postprocess_elevenIds_writesClusterLinesPerBlock_andNoFinalEmptyLine() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    write(
        dir.resolve("kernel-1.trace"),
        HEADER
            + "1 0 0 0 0 0 0 1 0 0 1 0010 ffffffff 0 EXIT 0 0 0 \n"
            + "0 0 0 0 0 0 0 0 0 0 0 0000 ffffffff 0 NOP 0 0 0 \n");

    PostProcessor.builder().build().process(dir);

    assertThat(readText(dir.resolve("kernel-1.traceg")))
        .isEqualTo(
            HEADER
                + "\n#BEGIN_TB\n\nthread block = 0,0,0\ncluster id = 0,0,0\ncluster cta = 0,0,0\n"
                + "cluster rank = 0\n\nwarp = 0\ninsts = 1\n0000 ffffffff 0 NOP 0 0 0 \n"
                + "\n#END_TB\n"
                + "\n#BEGIN_TB\n\nthread block = 1,0,0\ncluster id = 0,0,0\ncluster cta = 1,0,0\n"
                + "cluster rank = 1\n\nwarp = 0\ninsts = 1\n0010 ffffffff 0 EXIT 0 0 0 \n"
                + "\n#END_TB\n");
  }

  @Test
  void postprocess_elevenIds_dropsLdgstsByPrefixOnly_keepingArrivesLdgstsbar() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    write(
        dir.resolve("kernel-1.trace"),
        HEADER
            + ids(0)
            + "0000 ffffffff 0 LDGSTS.E 2 R1 R2 16 1 0x7000 16 0 \n"
            + ids(0)
            + "0000 ffffffff 0 LDGSTS.E 2 R1 R2 16 1 0x9000 16 0 \n"
            + ids(0)
            + "0010 ffffffff 0 ARRIVES.LDGSTSBAR.64 0 0 0 \n"
            + ids(0)
            + "0020 ffffffff 0 ARRIVES.LDGSTSBAR.64 0 0 0 \n");

    PostProcessor.KernelResult kernel =
        PostProcessor.builder().build().process(dir).kernels().getFirst();

    assertThat(readText(dir.resolve("kernel-1.traceg")))
        .contains(
            "insts = 3\n0000 ffffffff 0 LDGSTS.E 2 R1 R2 16 1 0x9000 16 0 \n"
                + "0010 ffffffff 0 ARRIVES.LDGSTSBAR.64 0 0 0 \n"
                + "0020 ffffffff 0 ARRIVES.LDGSTSBAR.64 0 0 0 \n");
    assertThat(kernel.droppedLdgsts()).isEqualTo(1);
    assertThat(kernel.instructions()).isEqualTo(3);
  }

  @Test
  void postprocess_fourIds_stillDropsEveryOtherOpcodeContainingLdgsts() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    write(
        dir.resolve("kernel-1.trace"),
        HEADER
            + "0 0 0 0 0010 ffffffff 0 ARRIVES.LDGSTSBAR.64 0 0 0 \n"
            + "0 0 0 0 0020 ffffffff 0 ARRIVES.LDGSTSBAR.64 0 0 0 \n");

    PostProcessor.KernelResult kernel =
        PostProcessor.builder().build().process(dir).kernels().getFirst();

    assertThat(kernel.ids()).isEqualTo(RawIds.FOUR);
    assertThat(kernel.droppedLdgsts()).isEqualTo(1);
    assertThat(readText(dir.resolve("kernel-1.traceg"))).doesNotContain("cluster");
  }

  @Test
  void postprocess_elevenIds_dropsTrywaitsOnMbarriersNothingArrivesOn() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    String arrive = "0000 ffffffff 1 R1 SYNCS.ARRIVE.TRANS64.A1T0 2 R2 R3 8 1 0x100 0 \n";
    String waitArrived = "0010 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 1 0x100 0 \n";
    String waitNever = "0020 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 1 0x200 0 \n";
    write(
        dir.resolve("kernel-1.trace"),
        HEADER
            + ids(0)
            + arrive
            + ids(0)
            + waitArrived
            + ids(0)
            + waitNever
            + ids(1)
            + waitNever
            + ids(1)
            + "0030 ffffffff 0 EXIT 0 0 0 \n");

    PostProcessor.KernelResult kernel =
        PostProcessor.builder().bufferBytesPerKernel(1024).build().process(dir).kernels().get(0);

    String traceg = readText(dir.resolve("kernel-1.traceg"));
    assertThat(traceg)
        .contains("insts = 2\n" + arrive + waitArrived + "\n#END_TB")
        .contains("insts = 1\n0030 ffffffff 0 EXIT 0 0 0 \n\n#END_TB")
        .doesNotContain("0x200");
    assertThat(kernel.droppedTrywaits()).isEqualTo(2);
    assertThat(kernel.instructions()).isEqualTo(3);
    assertThat(TraceReader.countInstructions(dir.resolve("kernel-1.trace"))).isEqualTo(3);
  }

  @Test
  void postprocess_dropsTrywaits_whenTheWarpsSpilledToDisk() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");
    StringBuilder raw = new StringBuilder(HEADER);
    for (int i = 0; i < 400; i++) {
      raw.append(ids(i % 2))
          .append(String.format("%04x", i * 16))
          .append(" ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 1 0x")
          .append(i % 3 == 0 ? "300" : "200")
          .append(" 0 \n");
    }
    raw.append(ids(0)).append("1000 ffffffff 0 SYNCS.ARRIVE.TRANS64 1 R2 8 1 0x300 0 \n");
    write(dir.resolve("kernel-1.trace"), raw.toString());

    PostProcessor.KernelResult spilled =
        PostProcessor.builder().bufferBytesPerKernel(1024).build().process(dir).kernels().get(0);
    String spilledText = readText(dir.resolve("kernel-1.traceg"));
    PostProcessor.KernelResult inMemory =
        PostProcessor.builder().build().process(dir).kernels().get(0);

    assertThat(spilled.spillRuns()).isPositive();
    assertThat(readText(dir.resolve("kernel-1.traceg"))).isEqualTo(spilledText);
    assertThat(spilledText).doesNotContain("0x200");
    assertThat(spilled.instructions()).isEqualTo(inMemory.instructions()).isEqualTo(134 + 1);
  }

  @Test
  void postprocess_contextListSkipsUnknownLines_asTheNewestTool() throws IOException {
    write(dir.resolve("kernelslist_ctx_0x5"), "cudaGraphLaunch something\nkernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), HEADER + ids(0) + "0000 ffffffff 0 EXIT 0 0 0 \n");

    PostProcessor.builder().build().process(dir);

    assertThat(readText(dir.resolve("kernelslist.g"))).isEqualTo("kernel-1.traceg\n");
  }

  @Test
  void postprocess_fourIdsListWithAnUnknownLine_stillFails() throws IOException {
    write(dir.resolve("kernelslist"), "cudaGraphLaunch something\nkernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), HEADER + "0 0 0 0 0000 ffffffff 0 EXIT 0 0 0 \n");

    assertThatThrownBy(() -> PostProcessor.builder().build().process(dir))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("kernelslist:1");
    assertThat(dir.resolve("kernelslist.g")).doesNotExist();
  }

  @Test
  void postprocess_elevenIdsListWithAnUnknownLine_skipsIt() throws IOException {
    write(dir.resolve("kernelslist"), "cudaGraphLaunch something\nkernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), HEADER + ids(0) + "0000 ffffffff 0 EXIT 0 0 0 \n");

    PostProcessor.builder().build().process(dir);

    assertThat(readText(dir.resolve("kernelslist.g"))).isEqualTo("kernel-1.traceg\n");
  }

  @Test
  void postprocess_severalContexts_firstInContextOrderBecomesKernelslistG() throws IOException {
    write(dir.resolve("kernelslist_ctx_0x10"), "kernel-2.trace\n");
    write(dir.resolve("kernelslist_ctx_0x9"), "kernel-1.trace\n");
    write(dir.resolve("kernel-1.trace"), HEADER + ids(0) + "0000 ffffffff 0 EXIT 0 0 0 \n");
    write(dir.resolve("kernel-2.trace"), HEADER + ids(0) + "0000 ffffffff 0 EXIT 0 0 0 \n");

    PostProcessor.builder().build().process(dir);

    assertThat(readText(dir.resolve("kernelslist.g"))).isEqualTo("kernel-1.traceg\n");
    assertThat(readText(dir.resolve("kernelslist_ctx_0x10.g"))).isEqualTo("kernel-2.traceg\n");
    assertThat(TraceLayout.findOtherContextLists(dir.resolve("kernelslist.g")))
        .containsExactly(dir.resolve("kernelslist_ctx_0x10.g").toAbsolutePath().normalize());
  }

  @Test
  void readRawIds_tellsTheGenerationFromTheFirstInstructionLine() throws IOException {
    Path four = write(dir.resolve("a.trace"), HEADER + "0 0 0 0 0000 00000001 0 EXIT 0 0 0 \n");
    Path eleven = write(dir.resolve("b.trace"), HEADER + ids(0) + "0000 ffffffff 0 EXIT 0 0 0 \n");
    Path none = write(dir.resolve("c.trace"), HEADER);

    assertThat(TraceReader.readRawIds(four)).contains(RawIds.FOUR);
    assertThat(TraceReader.readRawIds(eleven)).contains(RawIds.ELEVEN);
    assertThat(TraceReader.readRawIds(none)).isEmpty();
    assertThat(Files.exists(none)).isTrue();
  }

  /** The 11 ids of thread block {@code x} (clusters of 2 along x), warp 0, and a space. */
  private static String ids(int x) {
    return x + " 0 0 0 " + (x / 2) + " 0 0 " + (x % 2) + " 0 0 " + (x % 2) + " ";
  }
}
