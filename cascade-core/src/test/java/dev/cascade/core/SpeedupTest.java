package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.Speedup.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SpeedupTest {

  @Test
  void between_callsOverlappingReplicaRangesTheSameWithinSpread() {
    // The H100/H200 case: 34,668 ± 168 against 34,853 ± 94, ranges that overlap.
    Speedup speedup =
        Speedup.between(Spread.of(34_500, 34_668, 34_836), Spread.of(34_759, 34_853, 34_947));

    assertThat(speedup.verdict()).isEqualTo(Verdict.SAME_WITHIN_SPREAD);
    assertThat(speedup.ratio()).isCloseTo(34_668.0 / 34_853, within(1e-12));
  }

  @Test
  void between_ranksADifferenceLargerThanTheSpread() {
    Spread baseline = Spread.of(1000, 1010, 1020);
    Spread quicker = Spread.of(800, 805, 810);

    assertThat(Speedup.between(baseline, quicker))
        .isEqualTo(new Speedup(1010.0 / 805, Verdict.FASTER));
    assertThat(Speedup.between(quicker, baseline))
        .isEqualTo(new Speedup(805.0 / 1010, Verdict.SLOWER));
  }

  @Test
  void between_countsAnyDifferenceOfSingleDeterministicReplicas() {
    assertThat(Speedup.between(Spread.of(1000), Spread.of(999)).verdict())
        .isEqualTo(Verdict.FASTER);
    assertThat(Speedup.between(Spread.of(1000), Spread.of(1000)))
        .isEqualTo(new Speedup(1, Verdict.SAME_WITHIN_SPREAD));
  }

  @Test
  void between_givesNothingWithoutReplicasOrWithAZeroMean() {
    assertThat(Speedup.between(Spread.empty(), Spread.of(5))).isNull();
    assertThat(Speedup.between(Spread.of(5), Spread.of(0))).isNull();
  }

  @Test
  void against_matchesKernelsByNameAndInstanceAndNotesThoseTheBaselineLacks() {
    ConfigResult h100 =
        config("SM90_H100", 1980.0, kernel("k", 0, 1000, 1000), kernel("k", 1, 500, 520));
    ConfigResult h200 =
        config(
            "SM90_H200",
            1980.0,
            kernel("k", 0, 1000, 1000),
            kernel("k", 1, 400, 410),
            kernel("extra", 0, 10, 10));

    List<ConfigSpeedups> speedups = Speedups.against(List.of(h100, h200), null);

    assertThat(speedups).extracting(ConfigSpeedups::baseline).containsOnly("SM90_H100");
    ConfigSpeedups second = speedups.get(1);
    assertThat(second.kernel("k", 0).cycles().verdict()).isEqualTo(Verdict.SAME_WITHIN_SPREAD);
    assertThat(second.kernel("k", 1).cycles().verdict()).isEqualTo(Verdict.FASTER);
    assertThat(second.kernel("k", 1).simulatedTime().ratio()).isCloseTo(510.0 / 405, within(1e-9));
    assertThat(second.kernel("extra", 0)).isNull();
    assertThat(second.notes()).singleElement().asString().contains("no speedup for extra");
    assertThat(Speedups.against(List.of(h100, h200), "SM90_H200").get(0).kernel("k", 1).cycles())
        .extracting(Speedup::verdict)
        .isEqualTo(Verdict.SLOWER);
  }

  private static ConfigResult config(String name, Double clock, KernelComparison... kernels) {
    List<KernelComparison> list = List.of(kernels);
    double low = list.stream().mapToDouble(k -> k.cycles().min()).sum();
    double high = list.stream().mapToDouble(k -> k.cycles().max()).sum();
    return new ConfigResult(
        name, "sm_90", clock, 2, 2, list, kernel(KernelComparison.TOTAL, 0, low, high), List.of());
  }

  private static KernelComparison kernel(String name, int instance, double low, double high) {
    Spread cycles = Spread.of(low, high);
    return new KernelComparison(
        name,
        instance,
        List.of(0, 1),
        cycles,
        cycles,
        Spread.of(1, 1),
        Spread.of(low / 1980, high / 1980));
  }
}
