package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.ACCELSIM2;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeAccelSim2Fixture;
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
  void aFileThatIsNotTracez_failsSayingSo() throws IOException {
    Path file = Files.writeString(dir.resolve("kernel-1.tracez"), "-kernel name = k\n");

    assertThatThrownBy(() -> TraceReader.countInstructions(file))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("not a well-formed .tracez");
  }
}
