package dev.cascade.core;

import static dev.cascade.core.ResultsFixture.sim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.ResultsFixture.K;
import dev.cascade.core.json.CompareJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runs of the same trace and config whose sims report different simulator builds: the change
 * per kernel and in total, with the spread test, and the inputs that differ.
 */
final class RunComparisonTest {

  private static final Offset<Double> EXACT = within(1e-9);
  private static final String H100 = "SM90_H100";
  private static final Provenance INPUTS =
      new Provenance("sha256:trace", "sha256:config", "sha256:binary", null, null, null);

  @TempDir Path dataDir;
  private ResultsFixture fixture;
  private Run before;
  private Run after;

  @BeforeEach
  void twoRunsBeforeAndAfterASimulatorChange() {
    fixture = new ResultsFixture(dataDir);
    before = fixture.newRun("demo", INPUTS, new RunEntry(H100, 2), new RunEntry("SM80_A100", 1));
    fixture.succeed(
        before,
        sim(before, H100, 0),
        "accelsim-commit-aaaa",
        new K("k_a", 1000, 3000),
        new K("k_b", 500, 1000));
    fixture.succeed(
        before,
        sim(before, H100, 1),
        "accelsim-commit-aaaa",
        new K("k_a", 1010, 3000),
        new K("k_b", 500, 1000));
    fixture.succeed(
        before, sim(before, "SM80_A100", 0), "accelsim-commit-aaaa", new K("k_a", 9, 9));
    after = fixture.newRun("demo", INPUTS, new RunEntry("SM90_H200", 1), new RunEntry(H100, 2));
    fixture.succeed(after, sim(after, "SM90_H200", 0), "accelsim-commit-bbbb", new K("k_a", 9, 9));
    fixture.succeed(
        after,
        sim(after, H100, 0),
        "accelsim-commit-bbbb",
        new K("k_a", 800, 3000),
        new K("k_b", 495, 1000),
        new K("k_c", 10, 10));
    fixture.succeed(
        after,
        sim(after, H100, 1),
        "accelsim-commit-bbbb",
        new K("k_a", 810, 3000),
        new K("k_b", 505, 1000),
        new K("k_c", 10, 10));
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  private RunComparison compare(Run... runs) {
    List<Run> stored = List.of(runs).stream().map(fixture::reload).toList();
    return RunComparisons.of(
        stored, stored.stream().map(run -> fixture.results.compare(run.id())).toList());
  }

  @Test
  void compare_givesThePerKernelChangeWithTheSpreadTest() {
    ConfigChange h100 = compare(before, after).change(after.id()).config(H100);

    KernelChange a = h100.kernel("k_a", 0);
    assertThat(a.position()).isEqualTo(1);
    // 1000, 1010 before; 800, 810 after: the ranges do not overlap.
    assertThat(a.cycles().baseline().mean()).isEqualTo(1005.0);
    assertThat(a.cycles().run().mean()).isEqualTo(805.0);
    assertThat(a.cycles().difference()).isEqualTo(-200.0);
    assertThat(a.cycles().relative()).isCloseTo(-200 / 1005.0, EXACT);
    assertThat(a.cycles().direction()).isEqualTo(MeasureChange.Direction.LOWER);
    assertThat(a.cycles().speedup().ratio()).isCloseTo(1005 / 805.0, EXACT);
    assertThat(a.cycles().speedup().verdict()).isEqualTo(Speedup.Verdict.FASTER);
    // The same instructions in fewer cycles: thread-level IPC went up.
    assertThat(a.ipc().baseline().mean()).isCloseTo((3.0 + 3000 / 1010.0) / 2, EXACT);
    assertThat(a.ipc().run().mean()).isCloseTo((3000 / 800.0 + 3000 / 810.0) / 2, EXACT);
    assertThat(a.ipc().direction()).isEqualTo(MeasureChange.Direction.HIGHER);
    assertThat(a.ipc().speedup()).isNull();
    assertThat(a.simulatedTime().difference()).isCloseTo(-200 / 1980.0, EXACT);
    assertThat(a.simulatedTime().direction()).isEqualTo(MeasureChange.Direction.LOWER);

    // 500, 500 before; 495, 505 after: inside the spread, not ranked.
    KernelChange b = h100.kernel("k_b", 0);
    assertThat(b.position()).isEqualTo(2);
    assertThat(b.cycles().difference()).isEqualTo(0.0);
    assertThat(b.cycles().direction()).isEqualTo(MeasureChange.Direction.SAME_WITHIN_SPREAD);
    assertThat(b.cycles().speedup().verdict()).isEqualTo(Speedup.Verdict.SAME_WITHIN_SPREAD);

    assertThat(h100.kernel("k_c", 0)).as("only the later run has it").isNull();
    assertThat(h100.notes())
        .containsExactly("only run \"" + after.id() + "\" has k_c: it is not compared");
  }

  @Test
  void compare_givesTheTotalChange() {
    KernelChange total = compare(before, after).change(after.id()).config(H100).total();

    // Totals 1500, 1510 before; 1305, 1325 after (k_c's 10 cycles included).
    assertThat(total.name()).isEqualTo(KernelComparison.TOTAL);
    assertThat(total.position()).isZero();
    assertThat(total.cycles().baseline().mean()).isEqualTo(1505.0);
    assertThat(total.cycles().run().mean()).isEqualTo(1315.0);
    assertThat(total.cycles().difference()).isEqualTo(-190.0);
    assertThat(total.cycles().direction()).isEqualTo(MeasureChange.Direction.LOWER);
    assertThat(total.cycles().speedup().ratio()).isCloseTo(1505 / 1315.0, EXACT);
  }

  @Test
  void compare_namesTheSimulatorBuildAsTheInputThatDiffers() {
    ConfigChange h100 = compare(before, after).change(after.id()).config(H100);

    assertThat(h100.differs()).containsExactly(InputDifference.SIMULATOR_BUILD);
    assertThat(h100.inputs())
        .extracting(InputDifference::input, InputDifference::status)
        .containsExactly(
            tuple("trace", InputDifference.Status.SAME),
            tuple("config content", InputDifference.Status.SAME),
            tuple("simulator", InputDifference.Status.SAME),
            tuple("simulator build", InputDifference.Status.DIFFERS));
    InputDifference build = h100.inputs().get(3);
    assertThat(build.baseline()).isEqualTo("Accel-Sim accelsim-commit-aaaa");
    assertThat(build.run()).isEqualTo("Accel-Sim accelsim-commit-bbbb");
    assertThat(h100.inputs().get(0).baseline()).isEqualTo("demo (sha256:trace)");
  }

  @Test
  void compare_namesTheConfigsOnlyOneRunHas() {
    RunChange change = compare(before, after).change(after.id());

    assertThat(change.configs()).extracting(ConfigChange::gpuConfig).containsExactly(H100);
    assertThat(change.onlyInBaseline()).containsExactly("SM80_A100");
    assertThat(change.onlyInRun()).containsExactly("SM90_H200");
  }

  @Test
  void compare_saysUnknownWhereASimRecordedNoProvenance() {
    Run old = fixture.newRun("demo", Provenance.UNKNOWN, new RunEntry(H100, 1));
    fixture.succeed(old, sim(old, H100, 0), null, new K("k_a", 1000, 3000));

    ConfigChange h100 = compare(before, old).change(old.id()).config(H100);

    assertThat(h100.differs()).isEmpty();
    assertThat(h100.inputs())
        .allSatisfy(
            input -> {
              assertThat(input.status()).isEqualTo(InputDifference.Status.UNKNOWN);
              assertThat(input.run()).contains("unknown");
            });
    assertThat(h100.kernel("k_a", 0).cycles().direction())
        .as("1000 lies inside 1000..1010")
        .isEqualTo(MeasureChange.Direction.SAME_WITHIN_SPREAD);
  }

  @Test
  void compare_ofVariants_namesTheOptionsEachRunSetOverItsCatalogConfig() {
    List<Run> stored = List.of(before, after).stream().map(fixture::reload).toList();
    // The same variant label in both runs, with a different launch latency: as a sweep labels it.
    List<List<ConfigResult>> results =
        stored.stream()
            .map(
                run ->
                    fixture.results.compare(run.id()).stream()
                        .map(
                            result ->
                                result.gpuConfig().equals(H100)
                                    ? result.withVariant(
                                        H100,
                                        Map.of(
                                            "-gpgpu_kernel_launch_latency",
                                            run == stored.get(0) ? "5000" : "1000"))
                                    : result)
                        .toList())
            .toList();

    ConfigChange h100 = RunComparisons.of(stored, results).change(after.id()).config(H100);

    assertThat(h100.differs())
        .containsExactly(InputDifference.SIMULATOR_BUILD, InputDifference.CONFIG_OPTIONS);
    InputDifference options = h100.inputs().getLast();
    assertThat(options.baseline()).isEqualTo("SM90_H100 with -gpgpu_kernel_launch_latency 5000");
    assertThat(options.run()).isEqualTo("SM90_H100 with -gpgpu_kernel_launch_latency 1000");
    // Configs as they are list no options row.
    assertThat(compare(before, after).change(after.id()).config(H100).inputs())
        .extracting(InputDifference::input)
        .doesNotContain(InputDifference.CONFIG_OPTIONS);
  }

  @Test
  @SuppressWarnings("unchecked")
  void compareJson_labelsEachMeasureAndListsWhatDiffers() {
    Map<String, Object> json = CompareJson.write(compare(before, after));

    assertThat(json).containsEntry("baseline", before.id());
    assertThat((Map<String, String>) json.get("measures"))
        .hasEntrySatisfying("cycles", label -> assertThat(label).contains("core clock"))
        .hasEntrySatisfying("ipc", label -> assertThat(label).contains("thread-level"));
    Map<String, Object> change = ((List<Map<String, Object>>) json.get("changes")).get(0);
    Map<String, Object> config = ((List<Map<String, Object>>) change.get("configs")).get(0);
    assertThat(config).containsEntry("differs", List.of("simulator build"));
    Map<String, Object> kernel = ((List<Map<String, Object>>) config.get("kernels")).get(0);
    assertThat(kernel).containsEntry("label", "k_a").containsEntry("position", 1);
    assertThat((Map<String, Object>) kernel.get("cycles"))
        .containsEntry("difference", -200.0)
        .containsEntry("direction", "lower");
  }

  @Test
  void compare_withMeasures_givesEachStatisticsChangeWithTheSpreadTestAndNoSpeedup() {
    List<Measure> measures = Measures.parseList("gpu_tot_sim_cycle:change,cycles,instructions");
    List<Run> stored = List.of(before, after).stream().map(fixture::reload).toList();
    RunComparison comparison =
        RunComparisons.of(
            stored,
            stored.stream().map(run -> fixture.results.compare(run.id(), measures)).toList(),
            measures);

    assertThat(comparison.measures())
        .extracting(Measure::id)
        .as("cycles is one of the fixed three; instructions is not")
        .containsExactly("gpu_tot_sim_cycle:change", "instructions");
    ConfigChange h100 = comparison.change(after.id()).config(H100);
    // The running total's change per kernel is the kernel's own cycles: 1000, 1010 -> 800, 810.
    MeasureChange a = h100.kernel("k_a", 0).measure("gpu_tot_sim_cycle:change");
    assertThat(a.baseline().mean()).isEqualTo(1005.0);
    assertThat(a.run().mean()).isEqualTo(805.0);
    assertThat(a.difference()).isEqualTo(-200.0);
    assertThat(a.direction()).isEqualTo(MeasureChange.Direction.LOWER);
    assertThat(a.speedup()).isNull();
    // 500, 500 -> 495, 505: the ranges overlap.
    assertThat(h100.kernel("k_b", 0).measure("gpu_tot_sim_cycle:change").direction())
        .isEqualTo(MeasureChange.Direction.SAME_WITHIN_SPREAD);
    MeasureChange total = h100.total().measure("gpu_tot_sim_cycle:change");
    assertThat(total.baseline().mean()).isEqualTo(1505.0);
    assertThat(total.run().mean()).isEqualTo(1315.0);
    assertThat(h100.total().measure("instructions").difference()).isEqualTo(10.0);
  }

  @Test
  @SuppressWarnings("unchecked")
  void compareJson_withMeasures_putsEachBesideTheFixedThreeAndSaysWhatItCounts() {
    List<Measure> measures = Measures.parseList("gpu_tot_sim_cycle:change");
    List<Run> stored = List.of(before, after).stream().map(fixture::reload).toList();
    Map<String, Object> json =
        CompareJson.write(
            RunComparisons.of(
                stored,
                stored.stream().map(run -> fixture.results.compare(run.id(), measures)).toList(),
                measures));

    assertThat((Map<String, String>) json.get("measures"))
        .containsOnlyKeys("cycles", "ipc", "simulated_time_us", "gpu_tot_sim_cycle:change");
    Map<String, Object> change = ((List<Map<String, Object>>) json.get("changes")).get(0);
    Map<String, Object> config = ((List<Map<String, Object>>) change.get("configs")).get(0);
    Map<String, Object> kernel = ((List<Map<String, Object>>) config.get("kernels")).get(0);
    assertThat((Map<String, Object>) kernel.get("gpu_tot_sim_cycle:change"))
        .containsEntry("difference", -200.0)
        .containsEntry("direction", "lower")
        .containsEntry("speedup", null);
    assertThat((Map<String, Object>) config.get("total")).containsKey("gpu_tot_sim_cycle:change");
  }

  @Test
  void parseRunIds_refusesAMissingOrEmptyIdNamingRuns() {
    assertThat(RunComparisons.parseRunIds("r_1, r_2")).containsExactly("r_1", "r_2");
    assertThatThrownBy(() -> RunComparisons.parseRunIds(null))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.field()).isEqualTo("runs"))
        .hasMessageContaining("runs is missing");
    assertThatThrownBy(() -> RunComparisons.parseRunIds("r_1,,r_2"))
        .hasMessageContaining("runs \"r_1,,r_2\" has an empty run id");
  }
}
