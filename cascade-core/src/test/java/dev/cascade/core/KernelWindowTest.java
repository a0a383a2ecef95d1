package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class KernelWindowTest {

  @Test
  void parse_readsPositionsAndRanges_sortedOnce() {
    assertThat(KernelWindow.parse("9, 1-3,2").positions()).containsExactly(1, 2, 3, 9);
    assertThat(KernelWindow.parse("2-3").positions()).containsExactly(2, 3);
  }

  @Test
  void parse_rejectsWhatIsNotAWindow_namingTheText() {
    for (String bad : new String[] {"", "0", "3-1", "a", "1,,2", "-2", "1-"}) {
      assertThatThrownBy(() -> KernelWindow.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("kernels \"" + bad + "\"");
    }
  }

  @Test
  void runEntry_checksItsWindow() {
    assertThat(new RunEntry("SM90_H100", 1, "2-3").window().orElseThrow().positions())
        .containsExactly(2, 3);
    assertThat(new RunEntry("SM90_H100", 1).window()).isEmpty();
    assertThatThrownBy(() -> new RunEntry("SM90_H100", 1, "x"))
        .hasMessageContaining("kernels \"x\"");
  }
}
