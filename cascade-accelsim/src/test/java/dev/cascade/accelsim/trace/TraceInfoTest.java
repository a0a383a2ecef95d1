package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.GEMM;
import static dev.cascade.accelsim.trace.TraceFixtures.PREFILL;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeFixtures;
import static dev.cascade.accelsim.trace.TraceFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TraceInfoTest {

  @TempDir Path dir;

  @Test
  void read_flashinferGemm() throws IOException {
    assumeFixtures();
    TraceInfo info = TraceInfo.read(GEMM);

    assertThat(info.kernelCount()).isEqualTo(8);
    assertThat(info.memcpyCount()).isZero();
    assertThat(info.kernelsList())
        .isEqualTo(GEMM.resolve("kernelslist.g").toAbsolutePath().normalize());
    assertThat(info.kernels())
        .extracting(KernelInfo::index)
        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    assertThat(info.kernels())
        .allSatisfy(
            kernel -> {
              assertThat(kernel.header().binaryVersion()).isEqualTo(80);
              assertThat(kernel.header().id()).isEqualTo(kernel.index());
              assertThat(kernel.sizeOnDisk()).isEqualTo(Files.size(kernel.file()));
              assertThat(kernel.instructions()).isEmpty();
            });
    assertThat(info.kernels().getFirst().listedName()).isEqualTo("kernel-1.traceg.xz");
    assertThat(info.kernels().getFirst().sizeOnDisk()).isEqualTo(3736);
    assertThat(info.instructions()).isEmpty();
  }

  @Test
  void readCountingInstructions_flashinferGemm() throws IOException {
    assumeFixtures();
    TraceInfo info = TraceInfo.readCountingInstructions(GEMM);

    assertThat(info.kernels())
        .extracting(kernel -> kernel.instructions().getAsLong())
        .containsExactly(2531L, 2531L, 115L, 113L, 49L, 68L, 996L, 48L);
    assertThat(info.instructions()).isEqualTo(OptionalLong.of(6451));
  }

  @Test
  void read_acceptsACascadeTraceFolderWithTracesInside() throws IOException {
    assumeFixtures();
    Path traces = Files.createDirectories(dir.resolve("traces"));
    write(dir.resolve("metadata.json"), "{\"model\": \"flashinfer\"}\n");
    Files.copy(PREFILL.resolve("kernelslist.g"), traces.resolve("kernelslist.g"));
    Files.copy(PREFILL.resolve("kernel-1.traceg.xz"), traces.resolve("kernel-1.traceg.xz"));

    TraceInfo info = TraceInfo.readCountingInstructions(dir);

    assertThat(info.folder()).isEqualTo(traces.toAbsolutePath().normalize());
    assertThat(info.kernels())
        .singleElement()
        .satisfies(
            kernel -> {
              assertThat(kernel.header().grid()).isEqualTo(new Dim3(1, 1, 4));
              assertThat(kernel.header().block()).isEqualTo(new Dim3(32, 4, 1));
              assertThat(kernel.instructions()).hasValue(29024);
            });
  }

  @Test
  void read_kernelCountIsTheListsKernelLines_notTheFilesInTheFolder() throws IOException {
    write(dir.resolve("kernelslist.g"), "MemcpyHtoD,0x10,8\nkernel-2.traceg\n");
    for (int i = 1; i <= 3; i++) {
      write(
          dir.resolve("kernel-" + i + ".traceg"),
          "-kernel name = k" + i + "\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n\n#traces\n");
    }

    TraceInfo info = TraceInfo.read(dir);

    assertThat(info.kernelCount()).isEqualTo(1);
    assertThat(info.memcpyCount()).isEqualTo(1);
    assertThat(info.kernels().getFirst().name()).isEqualTo("k2");
  }

  @Test
  void read_listNamingAMissingFile_failsNamingTheLine() throws IOException {
    Path list = write(dir.resolve("kernelslist.g"), "kernel-1.traceg\n\nkernel-9.traceg\n");
    write(
        dir.resolve("kernel-1.traceg"),
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (1,1,1)\n");

    assertThatThrownBy(() -> TraceInfo.read(dir))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(
            list.toAbsolutePath() + ":3: the list names 'kernel-9.traceg', which is not a file");
  }

  @Test
  void read_rawTraceOnly_saysToPostProcessFirst() throws IOException {
    write(dir.resolve("kernelslist"), "kernel-1.trace\n");

    assertThatThrownBy(() -> TraceInfo.read(dir))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("no kernelslist.g; only a raw 'kernelslist' is there")
        .hasMessageContaining("cascade postprocess");
  }

  @Test
  void read_missingFolder_failsSayingSo() {
    assertThatThrownBy(() -> TraceInfo.read(dir.resolve("nope")))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("no such file or folder");
  }
}
