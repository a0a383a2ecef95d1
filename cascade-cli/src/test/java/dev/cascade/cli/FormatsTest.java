package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class FormatsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void bar_fillsInProportionToKernelsDone() {
    assertThat(Formats.bar(0, 5, 10)).isEqualTo("[..........] 0/5");
    assertThat(Formats.bar(3, 5, 10)).isEqualTo("[######....] 3/5");
    assertThat(Formats.bar(5, 5, 10)).isEqualTo("[##########] 5/5");
    assertThat(Formats.bar(0, 0, 10)).isEqualTo("[..........] 0/0");
  }

  @Test
  void duration_isShort() {
    assertThat(Formats.duration(Duration.ofMillis(1420))).isEqualTo("1.4s");
    assertThat(Formats.duration(Duration.ofSeconds(42))).isEqualTo("42s");
    assertThat(Formats.duration(Duration.ofMinutes(5))).isEqualTo("5m");
    assertThat(Formats.duration(Duration.ofHours(3))).isEqualTo("3h");
    assertThat(Formats.duration(Duration.ofDays(4))).isEqualTo("4d");
    assertThat(Formats.duration(Duration.ofSeconds(-3))).isEqualTo("0.0s");
  }

  @Test
  void size_usesBinaryUnits() {
    assertThat(Formats.size(812)).isEqualTo("812 B");
    assertThat(Formats.size(18342)).isEqualTo("17.9 KiB");
    assertThat(Formats.size(5L << 30)).isEqualTo("5.0 GiB");
  }

  @Test
  void spread_isMeanStdevAndRange_orTheMeanAloneForOneReplica() throws Exception {
    assertThat(
            Formats.spread(
                JSON.readTree(
                    "{\"n\": 2, \"mean\": 1005.0, \"stdev\": 7.0710678, \"min\": 1000.0,"
                        + " \"max\": 1010.0}"),
                0))
        .isEqualTo("1005 ± 7.1 [1000..1010]");
    assertThat(
            Formats.spread(
                JSON.readTree(
                    "{\"n\": 1, \"mean\": 3.98, \"stdev\": 0, \"min\": 3.98, \"max\": 3.98}"),
                3))
        .isEqualTo("3.980");
    assertThat(
            Formats.spread(
                JSON.readTree(
                    "{\"n\": 3, \"mean\": 4000, \"stdev\": 0, \"min\": 4000, \"max\": 4000}"),
                0))
        .isEqualTo("4000 (all 3 agree)");
    assertThat(Formats.spread(JSON.readTree("{\"n\": 0}"), 3)).isEqualTo("-");
  }

  @Test
  void shorten_keepsBothEndsOfALongName() {
    String name = "_ZN7cutlass6KernelINS_4gemm6kernel4GemmIEEEEvNT_6ParamsE";

    String shortened = Formats.shorten(name, 20);

    assertThat(shortened).hasSize(20).startsWith("_ZN7cutlass6").endsWith("ParamsE").contains("…");
    assertThat(Formats.shorten("short", 20)).isEqualTo("short");
  }
}
