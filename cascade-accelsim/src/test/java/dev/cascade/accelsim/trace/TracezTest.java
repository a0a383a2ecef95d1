package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.ACCELSIM2;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeAccelSim2Fixture;
import static dev.cascade.accelsim.trace.TraceFixtures.readText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Accel-Sim 2.0's .tracez, read as the text it holds. */
final class TracezTest {

  private static final List<String> KERNELS =
      List.of("kernel-1-ctx_0x1", "kernel-3-ctx_0x1", "kernel-7-ctx_0x2");

  @TempDir Path dir;

  @Test
  void openAsText_givesUpstreamsTextOutput_byteForByte() throws IOException {
    assumeAccelSim2Fixture();
    for (String kernel : KERNELS) {
      Path tracez = ACCELSIM2.resolve("expected/tracez/" + kernel + ".tracez");
      try (InputStream text = TraceReader.open(tracez)) {
        assertThat(text.readAllBytes())
            .as(kernel)
            .isEqualTo(
                Files.readAllBytes(ACCELSIM2.resolve("expected/text/" + kernel + ".traceg")));
      }
    }
  }

  @Test
  void countsAndHeader_agreeWithTheTextForm() throws IOException {
    assumeAccelSim2Fixture();
    for (String kernel : KERNELS) {
      Path tracez = ACCELSIM2.resolve("expected/tracez/" + kernel + ".tracez");
      Path traceg = ACCELSIM2.resolve("expected/text/" + kernel + ".traceg");
      assertThat(TraceReader.countInstructions(tracez))
          .isEqualTo(TraceReader.countInstructions(traceg))
          .isPositive();
      assertThat(TraceReader.readHeader(tracez)).isEqualTo(TraceReader.readHeader(traceg));
    }
  }

  @Test
  void traceInfo_readsAListOfTracezKernels() throws IOException {
    assumeAccelSim2Fixture();
    TraceInfo info = TraceInfo.readCountingInstructions(ACCELSIM2.resolve("expected/tracez"));
    TraceInfo text = TraceInfo.readCountingInstructions(ACCELSIM2.resolve("expected/text"));

    assertThat(info.instructions()).isEqualTo(text.instructions());
    assertThat(info.contextCount()).isEqualTo(2);
  }

  @Test
  void postprocessAsTracez_writesWhatUpstreamWrites_asTheTextItDecodesTo() throws IOException {
    assumeAccelSim2Fixture();
    TraceFixtures.copyFiles(ACCELSIM2.resolve("input"), dir);

    PostProcessor.builder().format(PostProcessor.Format.TRACEZ).build().process(dir);

    Path expected = ACCELSIM2.resolve("expected/tracez");
    assertThat(dir.resolve("kernelslist.g"))
        .hasSameBinaryContentAs(expected.resolve("kernelslist.g"));
    assertThat(dir.resolve("kernelslist_ctx_0x2.g"))
        .hasSameBinaryContentAs(expected.resolve("kernelslist_ctx_0x2.g"));
    for (String kernel : KERNELS) {
      try (InputStream text = TraceReader.open(dir.resolve(kernel + ".tracez"))) {
        assertThat(text.readAllBytes())
            .as(kernel)
            .isEqualTo(
                Files.readAllBytes(ACCELSIM2.resolve("expected/text/" + kernel + ".traceg")));
      }
    }
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("."));
    }
  }

  @Test
  void postprocessAsTracez_splitsLongWarpsIntoFrames_neverInsideAReplayRegion() throws IOException {
    StringBuilder raw =
        new StringBuilder("-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n\n");
    for (int i = 0; i < 5000; i++) {
      String opcode = i == 4080 ? "REPLAY_START" : i == 4120 ? "REPLAY_END" : "IADD3";
      raw.append("0 0 0 ")
          .append(i % 2)
          .append(" 0 0 0 0 0 0 0 ")
          .append(String.format("%04x", i * 16))
          .append(" ffffffff 0 ")
          .append(opcode)
          .append(" 0 0 ")
          .append(i)
          .append(" \n");
    }
    Files.writeString(dir.resolve("kernelslist"), "kernel-1.trace\n");
    Files.writeString(dir.resolve("kernel-1.trace"), raw);
    PostProcessor.builder().build().process(dir);
    byte[] text = Files.readAllBytes(dir.resolve("kernel-1.traceg"));

    PostProcessor.builder().format(PostProcessor.Format.TRACEZ).build().process(dir);

    Path tracez = dir.resolve("kernel-1.tracez");
    try (InputStream decoded = TraceReader.open(tracez)) {
      assertThat(decoded.readAllBytes()).isEqualTo(text);
    }
    Tracez.Layout layout = Tracez.read(tracez);
    assertThat(layout.blocks().getFirst().warps().getFirst().frameLines())
        .containsExactly(2061, 439); // warp 0: 2500 lines, a REPLAY region at lines 2040..2060
    assertThat(readText(dir.resolve("kernelslist.g"))).isEqualTo("kernel-1.tracez\n");
    assertThat(TraceReader.countInstructions(tracez)).isEqualTo(5000);
  }

  @Test
  void aFileThatIsNotTracez_failsSayingSo() throws IOException {
    Path file = Files.writeString(dir.resolve("kernel-1.tracez"), "-kernel name = k\n");

    assertThatThrownBy(() -> TraceReader.countInstructions(file))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("not a well-formed .tracez");
  }
}
