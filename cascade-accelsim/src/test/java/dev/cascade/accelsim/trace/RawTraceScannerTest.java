package dev.cascade.accelsim.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class RawTraceScannerTest {

  @Test
  void opcodeContainsLdgsts_readsTheOpcodeAfterTheDestinations() {
    assertThat(ldgsts("0100 ffffffff 0 LDGSTS.E.BYPASS.128 2 R9 R10 16 1 0x70 16 0 ")).isTrue();
    assertThat(ldgsts("0100 ffffffff 1 R2 LDGSTS.E 2 R9 R10 16 1 0x70 16 0 ")).isTrue();
    assertThat(ldgsts("0100 ffffffff 2 R2 R3 LDGSTS 0 0 ")).isTrue();
    assertThat(ldgsts("0100 ffffffff 0 IADD3 1 LDGSTS 0 0 ")).isFalse();
    assertThat(ldgsts("0100 ffffffff 1 LDGSTS IADD3 0 0 ")).isFalse();
  }

  @Test
  void opcodeContainsLdgsts_failedReadsLeaveTheOpcodeEmpty_asInCpp() {
    // dest_num is not a number: the C++ stream fails and the opcode stays empty.
    assertThat(ldgsts("0100 ffffffff LDGSTS 0 0 ")).isFalse();
    // -1 as unsigned is 4294967295 destinations: the words run out first.
    assertThat(ldgsts("0100 ffffffff -1 LDGSTS 0 0 ")).isFalse();
    // "0b" reads as 0 and leaves "b" as the opcode.
    assertThat(ldgsts("0100 ffffffff 0bLDGSTS 0 0 ")).isTrue();
    assertThat(ldgsts("0100 ffffffff 0 ")).isFalse();
    assertThat(ldgsts("")).isFalse();
  }

  private static boolean ldgsts(String rest) {
    byte[] bytes = rest.getBytes(StandardCharsets.US_ASCII);
    return RawTraceScanner.opcodeHasLdgsts(bytes, 0, bytes.length, false);
  }
}
