package dev.cascade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.cascade.core.internal.Engine;
import dev.cascade.core.internal.run.Heartbeat;
import dev.cascade.core.testkit.TestEngines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's simulation speed against earlier runs of the same trace and config, by simulator build:
 * sims report Accel-Sim logs whose builds and {@code gpgpu_simulation_rate} differ, and a slower
 * build shows as slower.
 */
final class RunSpeedTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String FAST =
      "Accel-Sim [build accelsim-commit-fast], GPGPU-Sim 4.2.0 [build gpgpu-sim_git-commit-fast]";
  private static final String SLOW =
      "Accel-Sim [build accelsim-commit-slow], GPGPU-Sim 4.2.0 [build gpgpu-sim_git-commit-slow]";

  @TempDir Path dataDir;
  private final TestClock clock = new TestClock();
  private Engine engine;

  @BeforeEach
  void start() throws IOException {
    TestTraces.writeReady(dataDir, "demo", 3);
    engine =
        TestEngines.start(
            TestEngines.settings(dataDir, new RecordingLauncher())
                .clock(clock)
                .simCommand(List.of("simulate"))
                .settings(),
            "demo",
            WAIT);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  /**
   * Accel-Sim's log of the 3-kernel trace on build {@code build}: earlier kernels print a higher
   * rate, the last {@code finalRate} simulated thread instructions a second, its speed over the
   * sim.
   */
  private static String log(String build, long finalRate) {
    StringBuilder log =
        new StringBuilder()
            .append("Accel-Sim [build accelsim-commit-")
            .append(build)
            .append("]\n*** GPGPU-Sim Simulator Version 4.2.0  [build gpgpu-sim_git-commit-")
            .append(build)
            .append("] ***\nGPGPU-Sim uArch: performance model initialization complete.\n");
    for (int k = 1; k <= 3; k++) {
      long rate = k == 3 ? finalRate : 999_000;
      log.append(
          String.format(
              Locale.ROOT,
              """
              launching kernel name: kernel_%1$d uid: %1$d cuda_stream_id: 0
              thread block = 0,0,0
              kernel_name = kernel_%1$d\s
              kernel_launch_uid = %1$d\s
              gpu_sim_cycle = 1000
              gpu_sim_insn = 4000
              gpu_ipc =       4.0000
              gpu_tot_sim_cycle = %2$d
              gpu_tot_sim_insn = %3$d
              gpu_tot_ipc =       4.0000
              gpgpu_simulation_time = 0 days, 0 hrs, 0 min, %1$d sec (%1$d sec)
              gpgpu_simulation_rate = %4$d (inst/sec)
              gpgpu_simulation_rate = 1000 (cycle/sec)
              gpgpu_silicon_slowdown = 1000000x
              """,
              k,
              1000L * k,
              4000L * k,
              rate));
    }
    return log.append("GPGPU-Sim: *** simulation thread exiting ***\n")
        .append("GPGPU-Sim: *** exit detected ***\n")
        .toString();
  }

  /** Runs {@code config} once per rate on {@code build}: each sim prints its log and succeeds. */
  private Run run(String config, String build, long... rates) throws InterruptedException {
    Run run = engine.runs().create("demo", List.of(new RunEntry(config, rates.length)));
    for (int i = 0; i < rates.length; i++) {
      String simId = run.sims().get(i).id();
      await().atMost(WAIT).until(() -> engine.runs().sim(simId).launcherRef() != null);
      engine.reports().heartbeat(simId, Heartbeat.running(0));
      engine.reports().putChunk(simId, 0, log(build, rates[i]).getBytes(StandardCharsets.UTF_8));
      engine.reports().heartbeat(simId, new Heartbeat(SimState.SUCCEEDED, null, 0, 1));
    }
    clock.advance(Duration.ofMinutes(1));
    return engine.runs().await(run.id(), WAIT);
  }

  @Test
  void speed_ofARunOnASlowerBuild_showsSlowerThanEarlierRunsOnTheFasterOne() throws Exception {
    run("SM90_H100", "fast", 300_000, 310_000, 290_000);
    run("SM90_H200", "fast", 50_000); // another config: not compared
    run("SM90_H100", "slow", 205_000, 215_000);
    Run run = run("SM90_H100", "slow", 200_000, 220_000);

    RunSpeed speed = engine.runs().speed(run.id());

    assertThat(speed.configs()).hasSize(1);
    RunSpeed.Config config = speed.configs().getFirst();
    assertThat(config.gpuConfig()).isEqualTo("SM90_H100");
    assertThat(config.sims()).isEqualTo(2);
    assertThat(config.medianKips()).isEqualTo(210.0); // the last kernel's rate, not the first's
    assertThat(config.simulators()).containsExactly(SLOW);
    assertThat(config.earlier())
        .extracting(
            RunSpeed.Build::simulator,
            RunSpeed.Build::sims,
            RunSpeed.Build::medianKips,
            RunSpeed.Build::minKips,
            RunSpeed.Build::maxKips,
            RunSpeed.Build::ratio,
            RunSpeed.Build::verdict)
        .containsExactly(
            tuple(FAST, 3, 300.0, 290.0, 310.0, 0.7, "slower"),
            tuple(SLOW, 2, 210.0, 205.0, 215.0, 1.0, "within spread"));
  }

  @Test
  void speed_ofTheFirstRun_hasNoEarlierSims_andAnEarlierRunDoesNotCountLaterOnes()
      throws Exception {
    Run first = run("SM90_H100", "fast", 300_000);
    run("SM90_H100", "slow", 100_000);

    RunSpeed speed = engine.runs().speed(first.id());

    assertThat(speed.configs().getFirst().medianKips()).isEqualTo(300.0);
    assertThat(speed.configs().getFirst().earlier()).isEmpty();
  }
}
