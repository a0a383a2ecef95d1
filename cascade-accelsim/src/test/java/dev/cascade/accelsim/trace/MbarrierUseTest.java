package dev.cascade.accelsim.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How the newest post-processor tells arrives on and waits for an mbarrier. */
final class MbarrierUseTest {

  @Test
  void arrivesAndWaits_theirAddressIsTheFirstListedLower32Bits() {
    assertThat(use("0000 ffffffff 1 R1 SYNCS.ARRIVE.TRANS64.A1T0 2 R2 R3 8 1 0x7f0000000100 0 "))
        .isEqualTo(new MbarrierUse(true, 0x100));
    assertThat(use("0000 ffffffff 0 ARRIVES.LDGSTSBAR.64.ARVCNT 1 R2 8 0 0x200 0x208 0 "))
        .isEqualTo(new MbarrierUse(true, 0x200));
    assertThat(use("0000 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 2 0x300 8 0 "))
        .isEqualTo(new MbarrierUse(false, 0x300));
  }

  @Test
  void tmaLoad_arrivesOnTheMbarrierRightAfterItsWidth() {
    assertThat(use("0000 ffffffff 0 UTMALDG.2D 2 UR4 UR6 16 0x400 0 "))
        .isEqualTo(new MbarrierUse(true, 0x400));
  }

  @Test
  void lineInfo_skipsTheLineNumberFirst() {
    byte[] line =
        "17 0000 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 1 0x300 0 "
            .getBytes(StandardCharsets.US_ASCII);
    assertThat(MbarrierUse.of(line, 0, line.length, true)).isEqualTo(new MbarrierUse(false, 0x300));
    assertThat(MbarrierUse.of(line, 0, line.length, false)).isNull();
  }

  @Test
  void otherOpcodes_zeroWidth_orOtherAddressModes_areNoUse() {
    assertThat(use("0000 ffffffff 1 R1 IADD3 2 R2 R3 0 0 ")).isNull();
    assertThat(use("0000 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 0 0 ")).isNull();
    assertThat(use("0000 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 3 0x300 0 ")).isNull();
    assertThat(use("0000 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 1")).isNull();
  }

  private static MbarrierUse use(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
    return MbarrierUse.of(bytes, 0, bytes.length, false);
  }
}
