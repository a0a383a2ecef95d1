package dev.cascade.agent.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tracer version 6's instruction lines in the emulator's counts. The lines are written here from
 * the format as Accel-Sim's trace parser reads it (accel-sim-framework {@code
 * gpu-simulator/trace-parser/trace_parser.cc} and {@code trace_parser.h} @ e1c2b67, {@code
 * inst_trace_t::parse_from_string}): after the v5 fields, a GMMA opcode's commit-group flag before
 * the width, a TMA opcode's mbarrier, multicast flag (and CTA mask), byte and out-of-bounds byte
 * counts before its address mode (3: count and addresses; 4: base, count, deltas), an optional
 * second immediate, and {@code Val} (each destination's then each source's values: a count of 1 or
 * 32 and the values) or {@code NoVal}. No real v6 trace was at hand.
 */
final class TracerV6LinesTest {

  @TempDir Path dir;

  private EmulatedKernel kernel(int tracerVersion, boolean lineInfo, String... lines)
      throws Exception {
    Path folder = Files.createDirectories(dir.resolve("v" + tracerVersion + "-" + lineInfo));
    Files.writeString(folder.resolve("kernelslist.g"), "kernel-1.traceg\n");
    Files.writeString(
        folder.resolve("kernel-1.traceg"),
        "-kernel name = _Z1kv\n"
            + "-grid dim = (1,1,1)\n"
            + "-block dim = (32,1,1)\n"
            + "-accelsim tracer version = "
            + tracerVersion
            + "\n"
            + "-enable lineinfo = "
            + (lineInfo ? 1 : 0)
            + "\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = "
            + lines.length
            + "\n"
            + String.join("\n", lines)
            + "\n\n#END_TB\n");
    return EmulatedTrace.load(folder, Long.MAX_VALUE).kernels().getFirst();
  }

  /** {@code 32} and 32 distinct hex values, as the tracer lists a register's per-lane values. */
  private static String lanesValues(long base) {
    return "32 "
        + IntStream.range(0, 32)
            .mapToObj(lane -> Long.toHexString(base + 4L * lane))
            .collect(Collectors.joining(" "));
  }

  private static final String[] V5 = {
    "0000 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x7f0000000000 16 0",
    "0010 ffffffff 1 R8 LDG.E.128 1 R2 16 1 0x7f0000001000 16 0",
    "0020 ffffffff 1 R12 FADD 2 R7 R11 0 0",
    "0030 0000ffff 0 HGMMA.64x128x16.F32 2 R24 R26 0 0",
    "0040 ffffffff 0 STG.E 2 R2 R12 4 2 0x7f0000003000 "
        + IntStream.range(1, 32).mapToObj(lane -> "4").collect(Collectors.joining(" "))
        + " 0",
    "0050 ffffffff 0 EXIT 0 0 0"
  };

  private static final String[] V6 = {
    // a second immediate and every register's values (destination R4: 32 values; source R2: one)
    "0000 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x7f0000000000 16 0 0 Val "
        + lanesValues(0x100)
        + " 1 7f0000000000",
    "0010 ffffffff 1 R8 LDG.E.128 1 R2 16 1 0x7f0000001000 16 0 NoVal",
    "0020 ffffffff 1 R12 FADD 2 R7 R11 0 0 3 Val 1 3f800000 1 0 " + lanesValues(0x40000000),
    // GMMA: its commit-group flag (1) comes before the width (0)
    "0030 0000ffff 0 HGMMA.64x128x16.F32 2 R24 R26 1 0 0 0 NoVal",
    "0040 ffffffff 0 STG.E 2 R2 R12 4 2 0x7f0000003000 "
        + IntStream.range(1, 32).mapToObj(lane -> "4").collect(Collectors.joining(" "))
        + " 0 NoVal",
    "0050 ffffffff 0 EXIT 0 0 0 0 NoVal"
  };

  @Test
  void v6Lines_countAsTheSameInstructionsWithoutTheirNewFields() throws Exception {
    EmulatedKernel v5 = kernel(5, false, V5);
    EmulatedKernel v6 = kernel(6, false, V6);

    assertThat(v6.warpInstructions()).isEqualTo(v5.warpInstructions()).isEqualTo(6);
    assertThat(v6.threadInstructions()).isEqualTo(v5.threadInstructions()).isEqualTo(5 * 32 + 16);
    assertThat(v6.globalLoads()).isEqualTo(v5.globalLoads()).isEqualTo(2);
    assertThat(v6.globalStores()).isEqualTo(v5.globalStores()).isEqualTo(1);
    assertThat(v6.loadBytes()).isEqualTo(v5.loadBytes()).isEqualTo(2 * 16 * 32);
    assertThat(v6.storeBytes()).isEqualTo(v5.storeBytes()).isEqualTo(128);
    assertThat(v6.loadRoundTrips()).isEqualTo(v5.loadRoundTrips()).isEqualTo(1);
    assertThat(v6.longestWarp()).isEqualTo(v5.longestWarp());
  }

  @Test
  void uniformRegisters_andLineNumbers_areRead() throws Exception {
    EmulatedKernel kernel =
        kernel(
            6,
            true,
            "12 0000 ffffffff 1 UR4 S2UR 1 UR5 0 0 NoVal",
            "12 0010 000000ff 1 R4 LDG.E 1 UR4 4 1 0x7f0000000000 4 0 0 NoVal",
            "13 0020 ffffffff 0 EXIT 0 0 0 0 NoVal");

    assertThat(kernel.warpInstructions()).isEqualTo(3);
    assertThat(kernel.threadInstructions()).isEqualTo(32 + 8 + 32);
    assertThat(kernel.globalLoads()).isEqualTo(1);
    assertThat(kernel.loadBytes()).isEqualTo(32); // 8 lanes of 4 bytes, one 32-byte sector
  }

  @Test
  void tmaTransfers_moveTheirByteCount_onceEvenWhenMulticast() throws Exception {
    EmulatedKernel kernel =
        kernel(
            6,
            false,
            // load: mbarrier 7f001000, multicast to CTAs 0b11, 8192 bytes, 0 out of bounds,
            // mode 3 with 2 addresses, then imm (no second one) and NoVal
            "0000 00000001 0 UTMALDG.2D 2 UR8 UR4 16 7f001000 1 3 8192 0 3 2 7f0000200000"
                + " 7f0000201000 0 NoVal",
            // store: no mbarrier, no multicast, 4096 bytes, 128 out of bounds, mode 4: base,
            // count 2 and one delta, then both immediates and NoVal
            "0010 00000001 0 UTMASTG.2D 2 UR8 UR4 16 0 0 4096 128 4 7f0000300000 2 4096 0 0 NoVal",
            "0020 ffffffff 0 EXIT 0 0 0 0 NoVal");

    assertThat(kernel.warpInstructions()).isEqualTo(3);
    assertThat(kernel.globalLoads()).isEqualTo(1);
    assertThat(kernel.loadBytes()).isEqualTo(8192);
    assertThat(kernel.globalStores()).isEqualTo(1);
    assertThat(kernel.storeBytes()).isEqualTo(4096);
    // a TMA load completes on its mbarrier: no register waits for it
    assertThat(kernel.loadRoundTrips()).isZero();
  }

  @Test
  void aLineCutShort_isStillOneInstruction() throws Exception {
    EmulatedKernel kernel =
        kernel(6, false, "0000 00000001 0 UTMALDG.2D 2 UR8 UR4 16 7f001000", "0010 ffffffff 0");

    assertThat(kernel.warpInstructions()).isEqualTo(2);
  }
}
