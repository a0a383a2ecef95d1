package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class RunEntryTest {

  @ParameterizedTest
  @ValueSource(ints = {0, 65, -1, Integer.MAX_VALUE})
  void create_refusesCountOutside1To64NamingTheValue(int count) {
    assertThatThrownBy(() -> new RunEntry("SM90_H100", count))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got " + count)
        .hasMessageContaining("SM90_H100")
        .hasMessageContaining("1 to 64");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 64})
  void create_acceptsCountsAtTheBounds(int count) {
    assertThat(new RunEntry("SM90_H100", count).count()).isEqualTo(count);
  }

  @Test
  void create_refusesABlankConfig() {
    assertThatThrownBy(() -> new RunEntry(" ", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gpu_config");
  }

  @Test
  void create_refusesANullConfig() {
    assertThatThrownBy(() -> new RunEntry(null, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("gpuConfig");
  }
}
