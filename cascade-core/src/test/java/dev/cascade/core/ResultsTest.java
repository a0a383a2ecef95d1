package dev.cascade.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.cascade.core.internal.Ids;
import dev.cascade.core.internal.events.EventLog;
import dev.cascade.core.internal.output.SimOutput;
import dev.cascade.core.internal.results.ResultsComparer;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.RunRepository;
import dev.cascade.core.internal.store.SimRepository;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ResultsTest {

  private static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);
  private static final Offset<Double> EXACT = within(1e-9);
  private static final String B = "k_b<int, 2>"; // a comma, to be quoted in CSV

  @TempDir Path dataDir;

  private Database database;
  private SimRepository sims;
  private SimOutput output;
  private Results results;
  private Run run;

  /** One finished kernel: its own cycles and instructions. */
  private record K(String name, long cycles, long instructions) {}

  @BeforeEach
  void open() {
    database = Database.open(dataDir.resolve("cascade.db"));
    sims = new SimRepository(database, CLOCK);
    output = new SimOutput(database, new EventLog(database), CLOCK);
    results = new ResultsComparer(database, GpuConfigCatalog.builtIn());
    run =
        newRun(
            new RunEntry("SM90_H100", 3),
            new RunEntry("SM80_A100", 2),
            new RunEntry("SM99_GONE", 1));
    new RunRepository(database).insert(run);

    // SM90_H100: three succeeded replicas; kernel B only in replicas 0 and 2.
    succeed(
        sim("SM90_H100", 0),
        true,
        new K("k_a", 1000, 3000),
        new K("k_a", 200, 400),
        new K(B, 50, 100));
    succeed(sim("SM90_H100", 1), true, new K("k_a", 1200, 3000), new K("k_a", 220, 440));
    succeed(
        sim("SM90_H100", 2),
        true,
        new K("k_a", 1400, 3600),
        new K("k_a", 240, 480),
        new K(B, 70, 140));
    // SM80_A100: one failed after printing a kernel, one cancelled before printing anything.
    feed(sim("SM80_A100", 0), false, new K("k_a", 9, 9));
    sims.transition(sim("SM80_A100", 0), SimState.LAUNCHING);
    sims.transition(sim("SM80_A100", 0), SimState.FAILED);
    sims.transition(sim("SM80_A100", 1), SimState.CANCELLED);
    // SM99_GONE: not in the catalog; its log never said it exited.
    succeed(sim("SM99_GONE", 0), false, new K("k_a", 500, 1000));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void compare_givesPerKernelSpreadsAcrossThreeReplicas() {
    ConfigResult h100 = results.compare(run.id()).get(0);

    assertThat(h100.gpuConfig()).isEqualTo("SM90_H100");
    assertThat(h100.arch()).isEqualTo("sm_90");
    assertThat(h100.clockMhz()).isEqualTo(1980.0);
    assertThat(h100.replicas()).isEqualTo(3);
    assertThat(h100.succeeded()).isEqualTo(3);
    assertThat(h100.notes()).isEmpty();
    assertThat(h100.kernels())
        .extracting(KernelComparison::name, KernelComparison::instance)
        .containsExactly(tuple("k_a", 0), tuple("k_a", 1), tuple(B, 0));

    KernelComparison first = h100.kernel("k_a", 0).orElseThrow();
    assertThat(first.replicas()).containsExactly(0, 1, 2);
    // cycles 1000, 1200, 1400: mean 1200; deviations -200, 0, 200; sample variance 80000 / 2.
    assertSpread(first.cycles(), 3, 1200, 200, 1000, 1400);
    assertThat(first.cycles().values()).containsExactly(1000.0, 1200.0, 1400.0);
    // instructions 3000, 3000, 3600: mean 3200; deviations -200, -200, 400; variance 240000 / 2.
    assertSpread(first.instructions(), 3, 3200, Math.sqrt(120_000), 3000, 3600);
    // ipc 3.0, 2.5, 2.5714...: mean 8.0714... / 3.
    double ipc2 = 3600.0 / 1400;
    double ipcMean = (3.0 + 2.5 + ipc2) / 3;
    double ipcStdev =
        Math.sqrt(
            (Math.pow(3.0 - ipcMean, 2) + Math.pow(2.5 - ipcMean, 2) + Math.pow(ipc2 - ipcMean, 2))
                / 2);
    assertSpread(first.ipc(), 3, ipcMean, ipcStdev, 2.5, 3.0);
    assertThat(ipcMean).isCloseTo(2.6904761904761907, EXACT);
    assertThat(ipcStdev).isCloseTo(0.2704242069428701, EXACT);
    // simulated time: cycles / 1980 MHz, in microseconds.
    assertSpread(
        first.simulatedTimeUs(), 3, 1200 / 1980.0, 200 / 1980.0, 1000 / 1980.0, 1400 / 1980.0);

    KernelComparison second = h100.kernel("k_a", 1).orElseThrow();
    assertSpread(second.cycles(), 3, 220, 20, 200, 240);
    assertSpread(second.ipc(), 3, 2, 0, 2, 2);

    // total per replica: cycles 1250, 1420, 1710 (mean 1460; deviations -210, -40, 250).
    KernelComparison total = h100.total();
    assertThat(total.name()).isEqualTo(KernelComparison.TOTAL);
    assertThat(total.replicas()).containsExactly(0, 1, 2);
    assertSpread(total.cycles(), 3, 1460, Math.sqrt((44_100 + 1_600 + 62_500) / 2.0), 1250, 1710);
    assertSpread(
        total.instructions(),
        3,
        (3500 + 3440 + 4220) / 3.0,
        Math.sqrt(
            (Math.pow(3500 - 3720, 2) + Math.pow(3440 - 3720, 2) + Math.pow(4220 - 3720, 2)) / 2),
        3440,
        4220);
    assertThat(total.ipc().values()).containsExactly(3500.0 / 1250, 3440.0 / 1420, 4220.0 / 1710);
    assertThat(total.simulatedTimeUs().mean()).isCloseTo(1460 / 1980.0, EXACT);
  }

  @Test
  void compare_givesAKernelMissingInSomeReplicasASmallerN() {
    KernelComparison b = results.compare(run.id()).get(0).kernel(B, 0).orElseThrow();

    assertThat(b.n()).isEqualTo(2);
    assertThat(b.replicas()).containsExactly(0, 2);
    assertSpread(b.cycles(), 2, 60, Math.sqrt(200), 50, 70);
    assertThat(b.cycles().values()).containsExactly(50.0, 70.0);
    assertSpread(b.ipc(), 2, 2, 0, 2, 2);
    assertThat(b.simulatedTimeUs().n()).isEqualTo(2);
  }

  @Test
  void compare_listsAConfigWithNoSucceededSimWithEmptySpreads() {
    ConfigResult a100 = results.compare(run.id()).get(1);

    assertThat(a100.gpuConfig()).isEqualTo("SM80_A100");
    assertThat(a100.arch()).isEqualTo("sm_80");
    assertThat(a100.clockMhz()).isEqualTo(1410.0);
    assertThat(a100.replicas()).isEqualTo(2);
    assertThat(a100.succeeded()).isZero();
    assertThat(a100.kernels()).as("a failed sim's kernels do not count").isEmpty();
    KernelComparison total = a100.total();
    assertThat(total.replicas()).isEmpty();
    for (Spread spread :
        List.of(total.cycles(), total.instructions(), total.ipc(), total.simulatedTimeUs())) {
      assertThat(spread).isEqualTo(Spread.empty());
      assertThat(List.of(spread.mean(), spread.stdev(), spread.min(), spread.max()))
          .allMatch(Double::isFinite);
    }
  }

  @Test
  void compare_leavesOutSimulatedTimeWhenTheConfigIsNoLongerInTheCatalog() {
    ConfigResult gone = results.compare(run.id()).get(2);

    assertThat(gone.gpuConfig()).isEqualTo("SM99_GONE");
    assertThat(gone.arch()).isNull();
    assertThat(gone.clockMhz()).isNull();
    assertThat(gone.succeeded()).isEqualTo(1);
    KernelComparison kernel = gone.kernel("k_a", 0).orElseThrow();
    assertSpread(kernel.cycles(), 1, 500, 0, 500, 500);
    assertThat(kernel.simulatedTimeUs().isEmpty()).isTrue();
    assertThat(gone.total().simulatedTimeUs().isEmpty()).isTrue();
    assertThat(gone.notes())
        .anySatisfy(note -> assertThat(note).contains("SM99_GONE", "no longer in the catalog"))
        .anySatisfy(note -> assertThat(note).contains("replica 0", "incomplete"));
  }

  @Test
  void compare_ofARunAlreadyRead_isTheSameAsByItsId() {
    Run read = new RunRepository(database).find(run.id()).orElseThrow();

    assertThat(results.compare(read)).isEqualTo(results.compare(run.id())).hasSize(3);
  }

  @Test
  void compare_keepsTheRunsEntryOrderAndRefusesAnUnknownRun() {
    assertThat(results.compare(run.id()))
        .extracting(ConfigResult::gpuConfig)
        .containsExactly("SM90_H100", "SM80_A100", "SM99_GONE");
    assertThatThrownBy(() -> results.compare("r_nope"))
        .isInstanceOfSatisfying(
            CascadeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }

  @Test
  void csv_hasAHeaderAKernelRowPerKernelAndATotalRowPerConfig() {
    String csv = results.csv(run.id());
    List<String> lines = List.of(csv.split("\r\n"));

    assertThat(csv).endsWith("\r\n").doesNotContain("NaN").doesNotContain("null");
    assertThat(lines.get(0))
        .isEqualTo(
            "gpu_config,arch,clock_mhz,replicas,succeeded,row,kernel,kernel_readable,instance,n,"
                + "cycles_mean,cycles_stdev,cycles_min,cycles_max,"
                + "thread_instructions_mean,thread_instructions_stdev,thread_instructions_min,"
                + "thread_instructions_max,"
                + "ipc_mean,ipc_stdev,ipc_min,ipc_max,"
                + "simulated_time_us_mean,simulated_time_us_stdev,simulated_time_us_min,"
                + "simulated_time_us_max,baseline,speedup_cycles,speedup_cycles_verdict,"
                + "speedup_simulated_time,speedup_simulated_time_verdict");
    assertThat(lines).hasSize(1 + 4 + 1 + 2);
    assertThat(lines.get(1))
        .startsWith("SM90_H100,sm_90,1980,3,3,kernel,k_a,k_a,0,3,1200,200,1000,1400,3200,")
        .endsWith(",SM90_H100,1,same_within_spread,1,same_within_spread");
    assertThat(lines.get(3))
        .startsWith("SM90_H100,sm_90,1980,3,3,kernel,\"k_b<int, 2>\",\"k_b<int, 2>\",0,2,60,");
    assertThat(lines.get(4)).startsWith("SM90_H100,sm_90,1980,3,3,total,,,,3,1460,");
    assertThat(lines.get(5))
        .isEqualTo("SM80_A100,sm_80,1410,2,0,total,,,,0" + ",".repeat(16) + ",SM90_H100,,,,");
    // 500 cycles against the baseline's 1000..1400: 1200 / 500 = 2.4 times faster, no time
    // speedup without SM99_GONE's clock.
    assertThat(lines.get(6))
        .startsWith("SM99_GONE,,,1,1,kernel,k_a,k_a,0,1,500,0,500,500,")
        .endsWith(",,,,SM90_H100,2.4,faster,,");
    for (String line : lines) {
      assertThat(line.split(",", -1)).hasSize(line.contains("\"") ? 33 : 31);
    }
  }

  @Test
  void csv_comparesWithTheNamedBaselineAndRefusesAConfigNotInTheRun() {
    List<String> lines = List.of(results.csv(run.id(), "SM99_GONE").split("\r\n"));

    // The H100's 1000..1400 cycles against SM99_GONE's 500: 500 / 1200 of its speed.
    assertThat(lines.get(1)).endsWith(",SM99_GONE," + (500.0 / 1200) + ",slower,,");
    assertThatThrownBy(() -> results.csv(run.id(), "SM70_V100"))
        .isInstanceOf(CascadeException.class)
        .hasMessageContaining("baseline \"SM70_V100\" is not a GPU config of this run")
        .hasMessageContaining("SM90_H100, SM80_A100, SM99_GONE");
  }

  @Test
  void spread_usesTheSampleStdevAndIsZeroForOneValue() {
    assertThat(Spread.of(2, 4, 4, 4, 5, 5, 7, 9).stdev()).isCloseTo(Math.sqrt(32.0 / 7), EXACT);
    assertThat(Spread.of(5)).isEqualTo(new Spread(1, 5, 0, 5, 5, List.of(5.0)));
    assertThat(Spread.of(List.of())).isEqualTo(Spread.empty());
    assertThat(Spread.of(0.1, 0.1, 0.1).mean()).isEqualTo(0.1);
    assertThatThrownBy(() -> Spread.of(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Spread(2, 1, 0, 1, 1, List.of(1.0)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------------------------------------

  private static Run newRun(RunEntry... entries) {
    Ids ids = new Ids(CLOCK);
    String runId = ids.newRunId();
    List<Sim> all = new ArrayList<>();
    for (RunEntry entry : entries) {
      for (int replica = 0; replica < entry.count(); replica++) {
        all.add(Sim.pending(ids.newSimId(), runId, entry.gpuConfig(), replica, T0));
      }
    }
    return new Run(runId, "demo", List.of(entries), T0, all);
  }

  private String sim(String gpuConfig, int replica) {
    return run.sims().stream()
        .filter(sim -> sim.gpuConfig().equals(gpuConfig) && sim.replica() == replica)
        .findFirst()
        .orElseThrow()
        .id();
  }

  private void succeed(String simId, boolean exits, K... kernels) {
    feed(simId, exits, kernels);
    sims.transition(simId, SimState.LAUNCHING);
    sims.transition(simId, SimState.RUNNING);
    sims.transition(simId, SimState.SUCCEEDED);
    output.release(simId);
  }

  /** Sends the sim's log, one chunk per kernel, as an Accel-Sim log prints them. */
  private void feed(String simId, boolean exits, K... kernels) {
    long totalCycles = 0;
    long totalInsn = 0;
    int seq = 0;
    for (K kernel : kernels) {
      totalCycles += kernel.cycles();
      totalInsn += kernel.instructions();
      String block =
          "launching kernel name: "
              + kernel.name()
              + " uid: "
              + (seq + 1)
              + "\nkernel_name = "
              + kernel.name()
              + " \nkernel_launch_uid = "
              + (seq + 1)
              + " \ngpu_sim_cycle = "
              + kernel.cycles()
              + "\ngpu_tot_sim_cycle = "
              + totalCycles
              + "\ngpu_tot_sim_insn = "
              + totalInsn
              + "\ngpgpu_silicon_slowdown = 1000x\n";
      output.accept(simId, run.id(), seq++, block.getBytes(UTF_8));
    }
    if (exits) {
      output.accept(simId, run.id(), seq, "GPGPU-Sim: *** exit detected ***\n".getBytes(UTF_8));
    }
  }

  private static void assertSpread(
      Spread spread, int n, double mean, double stdev, double min, double max) {
    assertThat(spread.n()).isEqualTo(n);
    assertThat(spread.mean()).as("mean").isCloseTo(mean, EXACT);
    assertThat(spread.stdev()).as("stdev").isCloseTo(stdev, EXACT);
    assertThat(spread.min()).as("min").isCloseTo(min, EXACT);
    assertThat(spread.max()).as("max").isCloseTo(max, EXACT);
  }
}
