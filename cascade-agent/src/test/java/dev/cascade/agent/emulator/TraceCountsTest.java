package dev.cascade.agent.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the emulator counts once per kernel when it reads a trace. */
final class TraceCountsTest {

  @TempDir Path dir;

  private EmulatedKernel read(String warp) throws Exception {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(
        dir.resolve("kernel-1.traceg"),
        """
        -kernel name = _Z1kv
        -kernel id = 1
        -grid dim = (1,1,1)
        -block dim = (32,1,1)
        -shmem = 0
        -nregs = 32

        #BEGIN_TB

        thread block = 0,0,0

        warp = 0
        insts = 1
        """
            + warp
            + "\n#END_TB\n");
    return EmulatedTrace.load(dir, Long.MAX_VALUE).kernels().getFirst();
  }

  @Test
  void accelSim2ClusterLinesAndReplayMarkers_areNotInstructions() throws Exception {
    Files.writeString(dir.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(
        dir.resolve("kernel-1.traceg"),
        """
        -kernel name = _Z1kv
        -grid dim = (1,1,1)
        -block dim = (32,1,1)

        #BEGIN_TB

        thread block = 0,0,0
        cluster id = 0,0,0
        cluster cta = 0,0,0
        cluster rank = 0

        warp = 0
        insts = 4
        0000 ffffffff 0 REPLAY_START 0 0 0
        0010 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0
        0020 ffffffff 0 REPLAY_END 0 0 0
        0030 ffffffff 0 EXIT 0 0 0

        #END_TB
        """);

    EmulatedKernel kernel = EmulatedTrace.load(dir, Long.MAX_VALUE).kernels().getFirst();

    assertThat(kernel.warpInstructions()).isEqualTo(2);
    assertThat(kernel.longestWarp()).isEqualTo(2);
  }

  @Test
  void accelSim2Fixture_countsWhatItsInstsLinesSay() throws Exception {
    Path text =
        Path.of(
            System.getProperty("cascade.fixtures", "../../shared/fixtures"),
            "accelsim/accelsim2/gemm-2ctx-c211/expected/text");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isDirectory(text), "needs the fixture " + text + " (at ../shared/fixtures)");

    for (EmulatedKernel kernel : EmulatedTrace.load(text, Long.MAX_VALUE).kernels()) {
      assertThat(kernel.warpInstructions())
          .as(kernel.file().toString())
          .isEqualTo(dev.cascade.accelsim.trace.TraceReader.countInstructions(kernel.file()));
    }
  }

  @Test
  void accelSim2Tracez_isReadAsItsText_neverAsCompressedBytes() throws Exception {
    Path fixture =
        Path.of(
            System.getProperty("cascade.fixtures", "../../shared/fixtures"),
            "accelsim/accelsim2/gemm-2ctx-c211/expected");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isDirectory(fixture), "needs the fixture " + fixture + " (at ../shared/fixtures)");

    List<EmulatedKernel> text =
        EmulatedTrace.load(fixture.resolve("text"), Long.MAX_VALUE).kernels();
    List<EmulatedKernel> counted =
        EmulatedTrace.load(fixture.resolve("tracez"), Long.MAX_VALUE).kernels();
    List<EmulatedKernel> estimated = EmulatedTrace.load(fixture.resolve("tracez"), 0).kernels();

    assertThat(counted).hasSameSizeAs(text);
    for (int i = 0; i < text.size(); i++) {
      assertThat(counted.get(i).warpInstructions()).isEqualTo(text.get(i).warpInstructions());
      assertThat(counted.get(i).threadInstructions()).isEqualTo(text.get(i).threadInstructions());
      assertThat(counted.get(i).loadBytes()).isEqualTo(text.get(i).loadBytes());
      // Too big to count: the estimate takes the .tracez index's exact count.
      assertThat(estimated.get(i).warpInstructions()).isEqualTo(text.get(i).warpInstructions());
    }
  }

  @Test
  void independentLoads_shareOneRoundTrip() throws Exception {
    EmulatedKernel kernel =
        read(
            """
            0000 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x7f0000000000 16 0
            0010 ffffffff 1 R8 LDG.E.128 1 R2 16 1 0x7f0000001000 16 0
            0020 ffffffff 1 R12 FADD 2 R7 R11 0 0
            0030 ffffffff 0 EXIT 0 0 0
            """);

    // R7 is the last register of the first 16-byte load: reading it waits for both loads.
    assertThat(kernel.loadRoundTrips()).isEqualTo(1);
    assertThat(kernel.loadBytes()).isEqualTo(2 * 16 * 32);
    assertThat(kernel.longestWarp()).isEqualTo(4);
  }

  @Test
  void aChainOfDependentLoads_waitsOnceForEach_andInactiveOrRepeatedLinesNotAtAll()
      throws Exception {
    EmulatedKernel kernel =
        read(
            """
            0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0
            0010 ffffffff 1 R6 LDG.E 1 R4 4 1 0x7f0000001000 4 0
            0020 ffffffff 1 R8 LDG.E 1 R6 4 1 0x7f0000002000 4 0
            0030 00000000 1 R9 LDG.E 1 R8 4 1 0x0 0 0
            0040 ffffffff 1 R10 LDG.E 1 R2 4 1 0x7f0000000010 4 0
            0050 ffffffff 0 STG.E 2 R2 R10 4 1 0x7f0000003000 4 0
            0060 ffffffff 0 EXIT 0 0 0
            """);

    // Each load waits for the one before; the masked one moves nothing but, reading R8, still
    // waits for the third (a scoreboard stalls whatever the mask). The last load re-reads the
    // first one's line (an L1 hit), so the store does not wait for DRAM.
    assertThat(kernel.loadRoundTrips()).isEqualTo(3);
    assertThat(kernel.globalLoads()).isEqualTo(4);
    assertThat(kernel.globalStores()).isEqualTo(1);
    assertThat(kernel.storeBytes()).isEqualTo(128);
  }
}
