package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class PrintedTest {

  @Test
  void count_isSingularForOneOnly() {
    assertThat(Printed.count(1, "sim")).isEqualTo("1 sim");
    assertThat(Printed.count(2, "sim")).isEqualTo("2 sims");
    assertThat(Printed.count(0, "kernel")).isEqualTo("0 kernels");
  }
}
