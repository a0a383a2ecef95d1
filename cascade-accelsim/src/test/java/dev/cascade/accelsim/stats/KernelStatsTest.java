package dev.cascade.accelsim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class KernelStatsTest {

  @Test
  void constructor_rejectsNegativeCycles() {
    assertThatThrownBy(() -> new KernelStats("k", 1, 0, -1, 0, 0, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cycles must not be negative: '-1'");
  }

  @Test
  void constructor_rejectsBlankNameAndNonFiniteIpc() {
    assertThatThrownBy(() -> new KernelStats(" ", 1, 0, 1, 1, 1, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");
    assertThatThrownBy(() -> new KernelStats("k", 1, 0, 1, 1, Double.NaN, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'NaN'");
  }

  @Test
  void constructor_copiesAPlainMapAndKeepsItsOrder() {
    Map<String, Number> source = new LinkedHashMap<>();
    source.put("b", 2L);
    source.put("a", 1.5);
    KernelStats kernel = new KernelStats("k", 1, 0, 10, 20, 2, source);
    source.put("c", 3);

    assertThat(kernel.stats()).containsExactly(Map.entry("b", 2L), Map.entry("a", 1.5));
    assertThatThrownBy(() -> kernel.stats().put("d", 4))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void forEachStat_visitsIntegersAndDecimalsInLogOrder() {
    KernelStats parsed =
        LogSummary.parse("kernel_name = k\nx = 3\ny = 0.25\nz = 12%\n").kernels().get(0);
    List<String> seen = new ArrayList<>();

    parsed.forEachStat(
        new KernelStats.StatVisitor() {
          @Override
          public void integer(String key, long value) {
            seen.add(key + "=" + value + "L");
          }

          @Override
          public void decimal(String key, double value) {
            seen.add(key + "=" + value);
          }
        });

    assertThat(seen).containsExactly("x=3L", "y=0.25", "z=12L");
    assertThat(parsed.stats()).isEqualTo(Map.of("x", 3L, "y", 0.25, "z", 12L));
    assertThatThrownBy(() -> parsed.stats().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void outcomeLabel_isSnakeCase() {
    assertThat(LogOutcome.State.NOT_FINAL.label()).isEqualTo("not_final");
  }
}
