package dev.cascade.core.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.Sampling;
import dev.cascade.core.SamplingPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SamplingPlannerTest {

  /** 24 layers of: gemm (1000 insn), attention (varies 9,000 to 11,300), norm (200). */
  private static List<KernelFeatures> layers() {
    List<KernelFeatures> kernels = new ArrayList<>();
    for (int layer = 0; layer < 24; layer++) {
      kernels.add(KernelFeatures.of(kernels.size() + 1, "gemm", "8,1,1", "128,1,1", 1000L));
      kernels.add(
          KernelFeatures.of(kernels.size() + 1, "attn", "4,1,1", "128,1,1", 9000L + 100L * layer));
      kernels.add(KernelFeatures.of(kernels.size() + 1, "norm", "1,1,1", "256,1,1", 200L));
    }
    return kernels;
  }

  @Test
  void plan_groupsIdenticalLaunches_oneRepresentativeEach_weightedByWhatTheyStandFor() {
    SamplingPlan plan = SamplingPlanner.plan("t", layers(), Sampling.of(0.05));

    SamplingPlan.Stratum gemm = plan.strata().getFirst();
    assertThat(gemm.name()).isEqualTo("gemm");
    assertThat(gemm.size()).isEqualTo(24);
    assertThat(gemm.representative()).isEqualTo(1); // all alike: the first
    assertThat(gemm.weight()).isEqualTo(24.0);
    assertThat(gemm.dispersion()).isZero();
    assertThat(plan.strata()).extracting(SamplingPlan.Stratum::name).contains("attn", "norm");
    // Every launch stands in exactly one stratum.
    List<Integer> all = new ArrayList<>();
    plan.strata().forEach(s -> all.addAll(s.members()));
    Collections.sort(all);
    assertThat(all).hasSize(72).doesNotHaveDuplicates().startsWith(1).endsWith(72);
    assertThat(plan.predictedError()).isLessThanOrEqualTo(0.05);
  }

  @Test
  void plan_splitsAStratumWhoseInstructionsVaryMoreThanTheTarget_choosingTheMemberNearestTheMean() {
    SamplingPlan loose = SamplingPlanner.plan("t", layers(), Sampling.of(0.5));
    SamplingPlan tight = SamplingPlanner.plan("t", layers(), Sampling.of(0.005));

    // attn's instructions have a CV of about 2.3%: one stratum at 50%, several at 0.5%.
    assertThat(loose.strata().stream().filter(s -> s.name().equals("attn"))).hasSize(1);
    assertThat(tight.strata().stream().filter(s -> s.name().equals("attn")).count())
        .isGreaterThan(1);
    assertThat(tight.predictedError()).isLessThan(loose.predictedError());
    SamplingPlan.Stratum attn =
        loose.strata().stream().filter(s -> s.name().equals("attn")).findFirst().orElseThrow();
    // mean 10,150: layers 11 (10,100) and 12 (10,200) are as near; the lower position wins
    assertThat(attn.representativeInstructions()).isEqualTo(10_100L);
    // the weight projects the stratum's instructions from the representative's
    assertThat(attn.weight() * attn.representativeInstructions())
        .isCloseTo(attn.warpInstructions(), within(1e-6));
  }

  @Test
  void plan_isDeterministic_whateverTheInputOrder() {
    List<KernelFeatures> shuffled = new ArrayList<>(layers());
    Collections.shuffle(shuffled, new java.util.Random(7));
    assertThat(SamplingPlanner.plan("t", shuffled, Sampling.of(0.01)).strata())
        .isEqualTo(SamplingPlanner.plan("t", layers(), Sampling.of(0.01)).strata());
  }

  @Test
  void plan_sharesAndWindow_sayWhatIsSimulated() {
    SamplingPlan plan = SamplingPlanner.plan("t", layers(), Sampling.of(0.05));
    long total = 24 * 1000L + 24 * 200L + (24 * 9000L + 100L * (23 * 24 / 2));
    assertThat(plan.warpInstructions()).isEqualTo(total);
    assertThat(plan.simulatedShare())
        .isCloseTo((double) plan.simulatedWarpInstructions() / total, within(1e-12));
    assertThat(plan.window().positions())
        .containsExactlyElementsOf(
            plan.strata().stream().map(SamplingPlan.Stratum::representative).sorted().toList());
    assertThat(plan.summary()).startsWith("estimated from " + plan.strata().size() + " of 72");
  }

  @Test
  void plan_withABudget_stopsSplittingThere_andSaysItBound() {
    SamplingPlan plan = SamplingPlanner.plan("t", layers(), Sampling.of(0.001).withBudget(4));
    assertThat(plan.strata()).hasSize(4);
    assertThat(plan.notes()).anySatisfy(note -> assertThat(note).contains("budget of 4"));
    assertThatThrownBy(() -> SamplingPlanner.plan("t", layers(), Sampling.of(0.05).withBudget(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("budget 2")
        .hasMessageContaining("3 groups");
  }

  @Test
  void plan_withFeatures_tellsApartLaunchesThatMoveDifferentBytes() {
    List<KernelFeatures> kernels = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      // same instructions, but half the launches move ten times the bytes
      kernels.add(
          new KernelFeatures(
              i + 1, "k", "1,1,1", "32,1,1", 1000L, 100L, i % 2 == 0 ? 4096L : 40960L));
    }
    assertThat(SamplingPlanner.plan("t", kernels, Sampling.of(0.05)).strata()).hasSize(1);
    SamplingPlan byFeatures =
        SamplingPlanner.plan("t", kernels, Sampling.of(0.05).withMethod(Sampling.FEATURES));
    assertThat(byFeatures.strata()).hasSize(2);
    assertThat(byFeatures.strata()).allSatisfy(s -> assertThat(s.dispersion()).isZero());
  }

  @Test
  void plan_weightsUncountedLaunchesByNumber_andSaysSo() {
    List<KernelFeatures> kernels = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      kernels.add(KernelFeatures.of(i + 1, "big", "1,1,1", "32,1,1", null));
    }
    SamplingPlan plan = SamplingPlanner.plan("t", kernels, Sampling.defaults());
    assertThat(plan.strata()).singleElement().satisfies(s -> assertThat(s.weight()).isEqualTo(5));
    assertThat(plan.notes().getFirst()).contains("5 kernels have no warp instruction count");
  }

  @Test
  void estimator_weightsRepresentatives_andCombinesSamplingWithReplicaSpread() {
    SamplingPlan plan = SamplingPlanner.plan("t", layers(), Sampling.of(0.5));
    Map<Integer, Map<String, Double>> values = new java.util.HashMap<>();
    for (SamplingPlan.Stratum s : plan.strata()) {
      values.put(s.representative(), Map.of("cycles", 2.0 * s.representativeInstructions()));
    }
    double estimate =
        SampledEstimator.replica(plan, values, List.of("cycles")).orElseThrow().get("cycles");
    assertThat(estimate).isCloseTo(2.0 * plan.warpInstructions(), within(1e-6));

    values.remove(plan.strata().getFirst().representative());
    assertThat(SampledEstimator.replica(plan, values, List.of("cycles"))).isEmpty();

    var interval = SampledEstimator.interval(List.of(98.0, 102.0), 0.03);
    assertThat(interval.estimate()).isEqualTo(100.0);
    assertThat(interval.replicaSpread()).isCloseTo(0.02, within(1e-12));
    assertThat(interval.relative()).isCloseTo(Math.sqrt(0.03 * 0.03 + 0.02 * 0.02), within(1e-12));
    assertThat(interval.contains(103.5)).isTrue();
    assertThat(interval.contains(103.7)).isFalse();
  }
}
