package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cascade.core.Measure.Aggregation;
import dev.cascade.core.Measure.Source;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a request names measures, and what it is told when it names none. */
final class MeasuresTest {

  @Test
  void parse_readsEveryForm() {
    assertThat(Measures.parse("ipc")).isSameAs(Measures.IPC);
    Measure rate = Measures.parse(" L2_total_cache_miss_rate ");
    assertThat(rate.id()).isEqualTo("L2_total_cache_miss_rate");
    assertThat(rate.source()).isEqualTo(new Source.Statistic("L2_total_cache_miss_rate"));
    assertThat(rate.aggregation()).isEqualTo(Aggregation.LAST);
    Measure misses = Measures.parse("L2_total_cache_misses:change");
    assertThat(misses.source()).isEqualTo(new Source.Change("L2_total_cache_misses"));
    assertThat(misses.aggregation()).isEqualTo(Aggregation.SUM);
    assertThat(Measures.parse("total dram reads:max").aggregation()).isEqualTo(Aggregation.MAX);
    assertThat(Measures.parse("L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]").id())
        .isEqualTo("L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]");
  }

  @Test
  void parse_refusesWhatNoStatisticIsNamingTheFieldAndTheValue() {
    assertThatThrownBy(() -> Measures.parse("gpu_ipc:median"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.field()).isEqualTo("measures"))
        .hasMessageContaining("\"gpu_ipc:median\"")
        .hasMessageContaining(":change");
    assertThatThrownBy(() -> Measures.parse("")).hasMessageContaining("name a statistic");
    assertThatThrownBy(() -> Measures.parse("name")).hasMessageContaining("field of every");
    assertThatThrownBy(() -> Measures.parse("a(b)")).hasMessageContaining("at most 200");
  }

  @Test
  void parseList_keepsOneOfEachAndCapsTheCount() {
    assertThat(Measures.parseList("cycles,gpu_ipc,gpu_ipc"))
        .extracting(Measure::id)
        .containsExactly("cycles", "gpu_ipc");
    assertThat(Measures.parseList(" ")).isEmpty();
    String tooMany =
        String.join(
            ",",
            java.util.stream.IntStream.rangeClosed(0, Measures.MAX_REQUESTED)
                .mapToObj(i -> "stat_" + i)
                .toList());
    assertThatThrownBy(() -> Measures.parseList(tooMany)).hasMessageContaining("at most 32");
  }

  @Test
  void withDefaults_isTheFourThenOneMeasurePerIdFirstDefinitionFirst() {
    Measure summed = Measures.statistic("energy_uj", Aggregation.SUM);
    Measure asked =
        new Measure(
            "energy_uj:sum",
            "other",
            "",
            Measure.Direction.NEITHER,
            "x",
            new Source.Statistic("other"),
            Aggregation.SUM);

    List<Measure> all = Measures.withDefaults(List.of(summed, Measures.CYCLES, asked));

    assertThat(all)
        .containsExactly(
            Measures.CYCLES,
            Measures.INSTRUCTIONS,
            Measures.IPC,
            Measures.SIMULATED_TIME_US,
            summed);
  }

  @Test
  void nearest_findsCloseNamesIgnoringCase() {
    assertThat(
            Measures.nearest(
                "l2_total_cache_miss_rat",
                List.of("L2_total_cache_miss_rate", "L2_total_cache_misses", "gpu_ipc"),
                3))
        .first()
        .isEqualTo("L2_total_cache_miss_rate");
    assertThat(Measures.nearest("zzzz", List.of("gpu_ipc"), 3)).isEmpty();
  }
}
