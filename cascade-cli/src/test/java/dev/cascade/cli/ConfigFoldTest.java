package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.SimSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ConfigFoldTest {

  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  private static WatchedSim sim(String config, int replica, String state, int done) {
    WatchedSim sim = new WatchedSim("s_" + config + "_" + replica);
    sim.config = config;
    sim.replica = replica;
    sim.state = state;
    sim.done = done;
    sim.total = 5;
    return sim;
  }

  /** 64 replicas of H100 (3 running, 58 succeeded, 3 pending) and 20 of H200 (all failed). */
  private static List<WatchedSim> run() {
    List<WatchedSim> sims = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      String state = i < 3 ? "running" : i < 61 ? "succeeded" : "pending";
      WatchedSim sim = sim("SM90_H100", i, state, state.equals("succeeded") ? 5 : i < 3 ? 2 : 0);
      if (state.equals("running")) {
        sim.schedule =
            new SimSchedule(sim.id, null, NOW.plus(Duration.ofSeconds(30 + 30L * i)), "basis");
      } else if (state.equals("pending")) {
        sim.schedule = new SimSchedule(sim.id, i - 60, NOW.plus(Duration.ofSeconds(200)), "basis");
      }
      sims.add(sim);
    }
    for (int i = 0; i < 20; i++) {
      WatchedSim sim = sim("SM90_H200", i, "failed", 2);
      sim.error = i < 19 ? "deadlock: deadlock detected" : "exited with code 139";
      sims.add(sim);
    }
    return sims;
  }

  @Test
  void foldsOnlyRunsOfMoreThanSixteenSims() {
    assertThat(ConfigFold.folds(16)).isFalse();
    assertThat(ConfigFold.folds(17)).isTrue();
  }

  @Test
  void lines_oneLinePerConfig_withCountsByStateKernelsAndTheLatestEstimate() {
    List<String> lines = ConfigFold.lines(run(), 9, NOW);

    assertThat(lines)
        .containsExactly(
            "SM90_H100  [#########.] 296/320 kernels  64 sims: 3 pending, 3 running, 58"
                + " succeeded, done in ~3m",
            "SM90_H200  [####......] 40/100 kernels  20 sims: 20 failed");
  }

  @Test
  void line_ofAConfigWhoseSimsHaveNoEstimate_saysNoneAndPadsTheName() {
    List<WatchedSim> sims = List.of(sim("A", 0, "running", 1), sim("A", 1, "launching", 0));

    assertThat(ConfigFold.line("A", sims, 4, NOW))
        .isEqualTo("A     [#.........] 1/10 kernels  2 sims: 1 launching, 1 running");
  }

  @Test
  void line_whoseEstimateHasPassed_saysAnyMoment() {
    WatchedSim late = sim("A", 0, "running", 4);
    late.schedule = new SimSchedule(late.id, null, NOW.minusSeconds(5), "basis");

    assertThat(ConfigFold.line("A", List.of(late), 1, NOW)).endsWith(", done any moment");
  }

  @Test
  void key_changesWithTheCountsAndEachTenthOfTheKernels_notWithTheEstimate() {
    List<WatchedSim> sims = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sims.add(sim("A", i, "running", 0));
    }
    String before = ConfigFold.key(sims);
    sims.getFirst().schedule = new SimSchedule("s", null, NOW, "basis");
    sims.getFirst().done = 5; // 5 of 100 kernels: under a tenth
    assertThat(ConfigFold.key(sims)).isEqualTo(before);
    sims.get(1).done = 5;
    assertThat(ConfigFold.key(sims)).isNotEqualTo(before);
    String tenth = ConfigFold.key(sims);
    sims.get(2).state = "succeeded";
    assertThat(ConfigFold.key(sims)).isNotEqualTo(tenth);
  }

  @Test
  void errors_eachOncePerConfigWithHowManySimsItEnded() {
    List<WatchedSim> h200 = ConfigFold.byConfig(run()).get("SM90_H200");

    assertThat(ConfigFold.errors(h200, 60))
        .containsExactly(
            "19 sims failed: deadlock: deadlock detected", "1 sim failed: exited with code 139");
  }
}
