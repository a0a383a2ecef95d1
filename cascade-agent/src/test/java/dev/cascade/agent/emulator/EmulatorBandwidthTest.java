package dev.cascade.agent.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A kernel that streams far more data than the L2 holds is bound by DRAM bandwidth. */
final class EmulatorBandwidthTest {

  private static final int BLOCKS = 3200;
  private static final int WARPS_PER_BLOCK = 4;
  private static final int LOADS_PER_WARP = 32;
  private static final int BYTES_PER_LOAD = 16 * 32;

  @TempDir Path dir;

  /**
   * 3200 blocks of 4 warps, each warp reading 32 coalesced 512-byte rows no other warp reads: 200
   * MiB, four times H100's 50 MiB of L2, then writing one word.
   */
  private Path streamingTrace() throws IOException {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    try (BufferedWriter out =
        Files.newBufferedWriter(dir.resolve("kernel-1.traceg"), StandardCharsets.UTF_8)) {
      out.write("-kernel name = _Z6streamPK6float4Pf\n-kernel id = 1\n");
      out.write("-grid dim = (" + BLOCKS + ",1,1)\n-block dim = (128,1,1)\n");
      out.write("-shmem = 0\n-nregs = 32\n-binary version = 90\n-cuda stream id = 0\n\n");
      long address = 0x7f0000000000L;
      for (int block = 0; block < BLOCKS; block++) {
        out.write("\n#BEGIN_TB\n\nthread block = " + block + ",0,0\n");
        for (int warp = 0; warp < WARPS_PER_BLOCK; warp++) {
          out.write("\nwarp = " + warp + "\ninsts = " + (LOADS_PER_WARP + 3) + "\n");
          out.write("0000 ffffffff 1 R2 S2R 0 0 \n");
          for (int i = 0; i < LOADS_PER_WARP; i++) {
            out.write(
                String.format(
                    "%04x ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x%x 16 0 %n", 16 + i * 16, address));
            address += BYTES_PER_LOAD;
          }
          out.write("0300 00000001 0 STG.E 2 R2 R4 4 1 0x7f8000000000 4 0 \n");
          out.write("0310 ffffffff 0 EXIT 0 0 \n");
        }
        out.write("\n#END_TB\n");
      }
    }
    return dir;
  }

  private static long cycles(Path trace, String config) throws Exception {
    Emulation emulation =
        Emulator.prepare(
            EmulatorOptions.of(trace, config).withSpeed(0).withCountLimitBytes(Long.MAX_VALUE));
    Emulator.run(emulation, 0, new ByteArrayOutputStream(), new VirtualPacer());
    return emulation.totalCycles();
  }

  @Test
  void h200_beatsH100_byTheirBandwidthRatio_onAStreamingKernel() throws Exception {
    Path trace = streamingTrace();
    EmulatedKernel kernel =
        Emulator.prepare(EmulatorOptions.of(trace, "SM90_H100").withCountLimitBytes(Long.MAX_VALUE))
            .trace()
            .kernels()
            .getFirst();
    long bytes = (long) BLOCKS * WARPS_PER_BLOCK * LOADS_PER_WARP * BYTES_PER_LOAD;
    EmulatedGpu h100 = EmulatedGpu.builtIn("SM90_H100");
    EmulatedGpu h200 = EmulatedGpu.builtIn("SM90_H200");

    assertThat(kernel.loadBytes()).isEqualTo(bytes);
    assertThat(bytes).isGreaterThan(3 * h100.memory().l2Bytes());
    double bandwidthRatio =
        h200.memory().bandwidthBytesPerSecond() / h100.memory().bandwidthBytesPerSecond();
    double speedup = cycles(trace, "SM90_H100") / (double) cycles(trace, "SM90_H200");
    assertThat(bandwidthRatio).isCloseTo(1.2, within(0.001));
    assertThat(speedup).isCloseTo(bandwidthRatio, within(bandwidthRatio * 0.03));
  }
}
