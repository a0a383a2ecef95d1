package dev.cascade.accelsim.trace;

import static dev.cascade.accelsim.trace.TraceFixtures.GEMM;
import static dev.cascade.accelsim.trace.TraceFixtures.PAIR;
import static dev.cascade.accelsim.trace.TraceFixtures.PREFILL;
import static dev.cascade.accelsim.trace.TraceFixtures.assumeFixtures;
import static dev.cascade.accelsim.trace.TraceFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

final class TraceReaderTest {

  @TempDir Path dir;

  @Test
  void readHeader_readsEveryFlashinferGemmKernelFromXz() throws IOException {
    assumeFixtures();
    for (int i = 1; i <= 8; i++) {
      KernelHeader header = TraceReader.readHeader(GEMM.resolve("kernel-" + i + ".traceg.xz"));

      assertThat(header.id()).isEqualTo(i);
      assertThat(header.binaryVersion()).isEqualTo(80);
      assertThat(header.nvbitVersion()).isEqualTo("1.7");
      assertThat(header.tracerVersion()).isEqualTo(5);
      assertThat(header.grid()).isEqualTo(new Dim3(1, 1, 1));
      assertThat(header.cudaStreamId()).isZero();
      assertThat(header.name()).startsWith("_ZN");
    }
    KernelHeader first = TraceReader.readHeader(GEMM.resolve("kernel-1.traceg.xz"));
    assertThat(first.name())
        .startsWith("_ZN2at6native54_GLOBAL__N__0d993ca2_21_DistributionNormal_cu_0c5b6e85")
        .doesNotContain(" ");
    assertThat(first.block()).isEqualTo(new Dim3(256, 1, 1));
    assertThat(first.nregs()).isEqualTo(38);
    assertThat(first.warpsPerBlock()).isEqualTo(8);
    assertThat(TraceReader.readHeader(GEMM.resolve("kernel-6.traceg.xz")).name())
        .isEqualTo(
            "_ZN14at_cuda_detail3cub20DeviceScanInitKernelINS0_13ScanTileStateIlLb1EEEEEvT_i");
  }

  @Test
  void readHeader_flashinferPrefill() throws IOException {
    assumeFixtures();
    KernelHeader header = TraceReader.readHeader(PREFILL.resolve("kernel-1.traceg.xz"));

    assertThat(header.grid()).isEqualTo(new Dim3(1, 1, 4));
    assertThat(header.block()).isEqualTo(new Dim3(32, 4, 1));
    assertThat(header.threadBlocks()).isEqualTo(4);
    assertThat(header.warpsPerBlock()).isEqualTo(4);
    assertThat(header.shmem()).isEqualTo(32768);
    assertThat(header.nregs()).isEqualTo(168);
    assertThat(header.name()).startsWith("_ZN10flashinfer30SinglePrefillWithKVCacheKernel");
    assertThat(header.fields())
        .containsEntry("shmem base_addr", "0x00007f36e0000000")
        .containsEntry("local mem base_addr", "0x00007f36de000000")
        .containsEntry("enable lineinfo", "0")
        .hasSize(13);
    assertThat(header.fields().keySet())
        .startsWith("kernel name", "kernel id", "grid dim", "block dim", "shmem", "nregs");
  }

  @Test
  void readHeader_readsARawTraceToo() throws IOException {
    assumeFixtures();
    KernelHeader header = TraceReader.readHeader(PAIR.resolve("kernel-1.trace"));

    assertThat(header.name()).isEqualTo("r1_formatter_frozen_regression");
    assertThat(header.binaryVersion()).isEqualTo(89);
    assertThat(header.nvbitVersion()).isEqualTo("1.7.7.1");
    assertThat(header.block()).isEqualTo(new Dim3(32, 1, 1));
  }

  @Test
  void readHeader_stopsAtTheEndOfTheHeader_withoutDecompressingTheRest() throws IOException {
    // A 4 MB xz trace cut in half: the header reads, counting the instructions finds the cut.
    StringBuilder text = new StringBuilder(header("(1,1,1)", "(32,1,1)") + "\n#BEGIN_TB\n\n");
    text.append("thread block = 0,0,0\n\nwarp = 0\ninsts = 100000\n");
    for (int i = 0; i < 100_000; i++) {
      text.append(
          String.format("%04x ffffffff 1 R%d IMAD.MOV.U32 2 R255 R%d 0 %d %n", i, i, i, i * 31));
    }
    text.append("\n#END_TB\n");
    Path whole = dir.resolve("kernel-1.traceg.xz");
    try (OutputStream out = new XZOutputStream(Files.newOutputStream(whole), new LZMA2Options(0))) {
      out.write(text.toString().getBytes(StandardCharsets.US_ASCII));
    }
    byte[] bytes = Files.readAllBytes(whole);
    Files.write(whole, Arrays.copyOf(bytes, bytes.length / 2));

    assertThat(TraceReader.readHeader(whole).name()).isEqualTo("_Z6kernelv");
    assertThatThrownBy(() -> TraceReader.countInstructions(whole))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(whole + ": the xz data ends early");
  }

  @Test
  void readHeader_withoutGridDim_failsNamingTheFile() throws IOException {
    Path trace =
        write(
            dir.resolve("kernel-1.traceg"), "-kernel name = k\n-block dim = (1,1,1)\n\n#traces\n");

    assertThatThrownBy(() -> TraceReader.readHeader(trace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(trace + ":4: ")
        .hasMessageContaining("no '-grid dim = ...' line");
  }

  @Test
  void readHeader_badNumber_failsNamingFileAndLine() throws IOException {
    Path trace =
        write(
            dir.resolve("kernel-1.traceg"),
            "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (1,1,1)\n-nregs = many\n");

    assertThatThrownBy(() -> TraceReader.readHeader(trace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(trace + ":4: '-nregs = many' is not a whole number");
  }

  @Test
  void readHeader_notXzDespiteTheName_readsPlain() throws IOException {
    Path trace = write(dir.resolve("kernel-1.traceg"), header("(2,3,4)", "(5,6,7)"));
    Path misnamed = Files.copy(trace, dir.resolve("kernel-2.traceg.xz"));

    assertThat(TraceReader.readHeader(misnamed).grid()).isEqualTo(new Dim3(2, 3, 4));
  }

  @Test
  void readHeader_corruptXz_failsNamingTheFile() throws IOException {
    Path trace = dir.resolve("kernel-1.traceg.xz");
    Files.write(trace, new byte[] {(byte) 0xFD, '7', 'z', 'X', 'Z', 0, 1, 2, 3, 4, 5, 6, 7, 8});

    assertThatThrownBy(() -> TraceReader.readHeader(trace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(trace + ": the xz data is corrupt");
  }

  @Test
  void countInstructions_isTheSameForATracegAndItsXz() throws IOException {
    assumeFixtures();
    assertThat(TraceReader.countInstructions(GEMM.resolve("decompressed/kernel-1.traceg")))
        .isEqualTo(TraceReader.countInstructions(GEMM.resolve("kernel-1.traceg.xz")))
        .isEqualTo(2531);
    assertThat(TraceReader.countInstructions(GEMM.resolve("decompressed/kernel-3.traceg")))
        .isEqualTo(TraceReader.countInstructions(GEMM.resolve("kernel-3.traceg.xz")))
        .isEqualTo(115);
    assertThat(TraceReader.countInstructions(PREFILL.resolve("kernel-1.traceg.xz")))
        .isEqualTo(29024);
  }

  @Test
  void countInstructions_ofARawTrace_countsWhatThePostProcessorKeeps() throws IOException {
    assumeFixtures();
    String traceg = TraceFixtures.readText(PREFILL.resolve("kernel-1.traceg.xz"));
    Path raw = write(dir.resolve("kernel-1.trace.xz"), TraceFixtures.rawFromProcessed(traceg));

    assertThat(TraceReader.countInstructions(raw)).isEqualTo(29024);
    assertThat(TraceReader.countInstructions(PAIR.resolve("kernel-1.trace"))).isEqualTo(5);
  }

  @Test
  void countInstructions_unknownSuffix_fails() throws IOException {
    Path trace = write(dir.resolve("kernel-1.txt"), header("(1,1,1)", "(1,1,1)"));

    assertThatThrownBy(() -> TraceReader.countInstructions(trace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("'kernel-1.txt'");
  }

  @Test
  void countInstructions_badInstsLine_failsNamingFileAndLine() throws IOException {
    Path trace =
        write(
            dir.resolve("kernel-1.traceg"),
            header("(1,1,1)", "(32,1,1)")
                + "\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = x\n");

    assertThatThrownBy(() -> TraceReader.countInstructions(trace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(trace + ":14: 'insts = x' is not 'insts = <count>'");
  }

  private static String header(String grid, String block) {
    return "-kernel name = _Z6kernelv\n-kernel id = 1\n-grid dim = "
        + grid
        + "\n-block dim = "
        + block
        + "\n\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] ...\n\n";
  }
}
