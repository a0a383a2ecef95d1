package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class BytesTest {

  @Test
  void indexOf_findsTheFirstTargetAtAnyOffsetAndLength() {
    Random random = new Random(7);
    byte[] alphabet = {'\n', 0x0b, '=', '<', 'a', ' ', 0, (byte) 0x80, (byte) 0xff, 1};
    for (int round = 0; round < 200_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = alphabet[random.nextInt(alphabet.length)];
      }
      int start = random.nextInt(bytes.length + 1);
      int end = start + random.nextInt(bytes.length - start + 1);
      for (byte target : new byte[] {'\n', '='}) {
        int expected = -1;
        for (int i = start; i < end && expected < 0; i++) {
          expected = bytes[i] == target ? i : -1;
        }
        assertThat(Bytes.indexOf(bytes, start, end, target))
            .as("%s in %s [%d, %d)", target, Arrays.toString(bytes), start, end)
            .isEqualTo(expected);
      }
    }
  }
}
