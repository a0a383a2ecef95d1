package dev.cascade.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cascade.core.Provenance;
import dev.cascade.core.Sim;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import dev.cascade.core.TraceKernel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A running sim's estimated finish, on a fixed clock: by warp instructions when the trace has them.
 */
final class SimSchedulesTest {

  private static final Instant LAUNCHED = Instant.parse("2026-12-02T06:00:00Z");
  private static final Instant NOW = LAUNCHED.plusSeconds(60);

  /** Three small kernels, then five that each do five times the three together. */
  private static List<TraceKernel> trace(Long... instructions) {
    List<TraceKernel> kernels = new ArrayList<>();
    for (int i = 0; i < instructions.length; i++) {
      kernels.add(
          new TraceKernel(
              i + 1, "kernel-" + (i + 1) + ".traceg", "k" + (i + 1), null, null, instructions[i]));
    }
    return kernels;
  }

  private static final List<TraceKernel> UNEVEN =
      trace(
          16_240_000L,
          16_240_000L,
          16_240_000L,
          81_200_000L,
          81_200_000L,
          81_200_000L,
          81_200_000L,
          81_200_000L);

  private static Sim running(int done, int total, String window) {
    return new Sim(
        "s_1",
        "r_1",
        "SM90_H100",
        0,
        SimState.RUNNING,
        "4242",
        null,
        null,
        LAUNCHED,
        LAUNCHED,
        NOW,
        null,
        "local",
        new SimProgress(done, total, "k" + (done + 1), Map.of(), null),
        1,
        window,
        null,
        Provenance.UNKNOWN,
        null);
  }

  private static SimSchedules.Estimate estimate(
      Sim sim, List<TraceKernel> trace, SimDurations.Expected expected) {
    WorkDone work =
        WorkDone.of(
                trace, sim.kernels(), sim.progress().kernelsDone(), sim.progress().kernelsTotal())
            .orElse(null);
    return SimSchedules.running(sim, expected, work, NOW);
  }

  @Test
  void running_withoutHistory_takesItsPaceInWarpInstructions_notInKernels() {
    SimSchedules.Estimate estimate = estimate(running(3, 8, null), UNEVEN, null);

    // 48.72 M warp instructions in 60 s is 812 k/s; 406 M are left: 500 s. Counting kernels, 3 in
    // 60 s would have left 5 in 100 s.
    assertThat(estimate.eta()).isEqualTo(NOW.plusSeconds(500));
    assertThat(estimate.basis())
        .isEqualTo("this sim's pace: 812 k warp instructions/s over 3 of 8 kernels");
  }

  @Test
  void running_onATraceWithAnUncountedKernel_takesItsPaceInKernels() {
    List<TraceKernel> uncounted = new ArrayList<>(UNEVEN);
    uncounted.set(7, new TraceKernel(8, "kernel-8.traceg", "k8", null, null, null));

    SimSchedules.Estimate estimate = estimate(running(3, 8, null), uncounted, null);

    assertThat(estimate.eta()).isEqualTo(NOW.plusSeconds(100));
    assertThat(estimate.basis()).isEqualTo("this sim's pace so far: 3 of 8 kernels");
  }

  @Test
  void running_withHistoryOfOtherConfigsOnly_scalesItByWarpInstructionsToDo() {
    SimDurations.Expected others =
        new SimDurations.Expected(
            Duration.ofSeconds(1000), false, "2 earlier sims of this trace on other configs");

    SimSchedules.Estimate estimate = estimate(running(3, 8, null), UNEVEN, others);

    // 406 M of 454.72 M warp instructions are left: 892.857... s of the 1000 s (by kernels, 625 s).
    assertThat(estimate.eta()).isEqualTo(NOW.plus(Duration.ofNanos(892_857_142_857L)));
    assertThat(estimate.basis())
        .isEqualTo(
            "2 earlier sims of this trace on other configs, scaled by warp instructions still to"
                + " do");
  }

  @Test
  void running_ofAKernelWindow_countsTheWindowsKernelsOnly() {
    // Kernels 3 and 4: 16.24 M done in 60 s, 81.2 M left.
    SimSchedules.Estimate estimate = estimate(running(1, 2, "3-4"), UNEVEN, null);

    assertThat(estimate.eta()).isEqualTo(NOW.plusSeconds(300));
    assertThat(estimate.basis())
        .isEqualTo("this sim's pace: 271 k warp instructions/s over 1 of 2 kernels");
  }

  @Test
  void workDone_ofASimRunningAnotherListThanTheTraces_isUnknown() {
    // A sim of another CUDA context: its 5 kernels are not the trace's 8.
    assertThat(WorkDone.of(UNEVEN, null, 2, 5)).isEmpty();
    assertThat(WorkDone.of(UNEVEN, "1-3", 1, 2)).isEmpty();
    assertThat(WorkDone.of(List.of(), null, 1, 8)).isEmpty();
  }
}
