package dev.cascade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Provenance;
import dev.cascade.core.Sim;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class WatchedSimTest {

  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

  private static Sim succeeded(Long peakMemoryBytes) {
    return sim(
        SimState.SUCCEEDED,
        new SimProgress(
            3, 3, null, Map.of("gpgpu_simulation_rate", 4000L, "wall_time_s", 2.5), "complete"),
        peakMemoryBytes);
  }

  private static Sim sim(SimState state, SimProgress progress, Long peakMemoryBytes) {
    return new Sim(
        "s_1",
        "r_1",
        "SM90_H100",
        0,
        state,
        "4242",
        null,
        0,
        T0,
        T0,
        T0,
        T0.plusSeconds(9),
        "local",
        progress,
        1,
        null,
        null,
        Provenance.UNKNOWN,
        peakMemoryBytes);
  }

  @Test
  void line_showsThePeakMemoryBesideTheSpeed() {
    WatchedSim sim = new WatchedSim("s_1");
    sim.take(succeeded(612L * 1024 * 1024));

    assertThat(sim.line(9, null))
        .isEqualTo("SM90_H100 #0  [##########] 3/3  succeeded  4.0 KIPS  612.0 MiB peak");
  }

  @Test
  void line_ofARunningSim_showsTheLatestKernelsWallTimeAfterTheSpeed() {
    WatchedSim sim = new WatchedSim("s_1");
    sim.take(
        sim(
            SimState.RUNNING,
            new SimProgress(
                1, 3, "k2", Map.of("gpgpu_simulation_rate", 209400L, "wall_time_s", 12.4), null),
            null));

    assertThat(sim.line(9, null))
        .isEqualTo(
            "SM90_H100 #0  [###.......] 1/3  running    209.4 KIPS  last kernel 12s  no heartbeat"
                + " yet");
  }

  @Test
  void line_withoutAMeasuredPeak_showsNone() {
    WatchedSim sim = new WatchedSim("s_1");
    sim.take(succeeded(null));

    assertThat(sim.line(9, null)).isEqualTo("SM90_H100 #0  [##########] 3/3  succeeded  4.0 KIPS");
  }
}
