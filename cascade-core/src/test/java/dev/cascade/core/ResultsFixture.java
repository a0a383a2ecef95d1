package dev.cascade.core;

import static java.nio.charset.StandardCharsets.UTF_8;

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

/**
 * Runs whose sims are played from the store's side: their logs fed chunk by chunk as Accel-Sim
 * prints them, and their states moved, so results are computed from what was stored.
 */
final class ResultsFixture implements AutoCloseable {

  static final Instant T0 = Instant.parse("2026-11-07T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

  /** One finished kernel: its own cycles and instructions. */
  record K(String name, long cycles, long instructions) {}

  final Database database;
  final SimRepository sims;
  final SimOutput output;
  final RunRepository runs;
  final Results results;
  private final Ids ids = new Ids(CLOCK);

  ResultsFixture(Path dataDir) {
    database = Database.open(dataDir.resolve("cascade.db"));
    sims = new SimRepository(database, CLOCK);
    output = new SimOutput(database, new EventLog(database), CLOCK);
    runs = new RunRepository(database);
    results = new ResultsComparer(database, GpuConfigCatalog.builtIn());
  }

  /** A stored run of {@code traceId} whose sims all carry {@code provenance}. */
  Run newRun(String traceId, Provenance provenance, RunEntry... entries) {
    String runId = ids.newRunId();
    List<Sim> all = new ArrayList<>();
    for (RunEntry entry : entries) {
      for (int replica = 0; replica < entry.count(); replica++) {
        all.add(
            Sim.pending(ids.newSimId(), runId, entry.gpuConfig(), replica, T0)
                .withProvenance(provenance));
      }
    }
    Run run = new Run(runId, traceId, List.of(entries), T0, all);
    runs.insert(run);
    return run;
  }

  /** The run as stored now. */
  Run reload(Run run) {
    return runs.find(run.id()).orElseThrow();
  }

  static String sim(Run run, String gpuConfig, int replica) {
    return run.sims().stream()
        .filter(sim -> sim.gpuConfig().equals(gpuConfig) && sim.replica() == replica)
        .findFirst()
        .orElseThrow()
        .id();
  }

  /** The sim prints its build line and its kernels, exits, and succeeds. */
  void succeed(Run run, String simId, String accelSimBuild, K... kernels) {
    running(run, simId, accelSimBuild, kernels);
    output.accept(
        simId, run.id(), kernels.length + 1, "GPGPU-Sim: *** exit detected ***\n".getBytes(UTF_8));
    sims.transition(simId, SimState.SUCCEEDED);
    output.release(simId);
  }

  /** The sim is running and has printed its build line and these kernels. */
  void running(Run run, String simId, String accelSimBuild, K... kernels) {
    sims.transition(simId, SimState.LAUNCHING);
    sims.transition(simId, SimState.RUNNING);
    String header = accelSimBuild == null ? "\n" : "Accel-Sim [build " + accelSimBuild + "]\n";
    output.accept(simId, run.id(), 0, header.getBytes(UTF_8));
    long totalCycles = 0;
    long totalInsn = 0;
    int seq = 1;
    for (K kernel : kernels) {
      totalCycles += kernel.cycles();
      totalInsn += kernel.instructions();
      String block =
          "launching kernel name: "
              + kernel.name()
              + " uid: "
              + seq
              + "\nkernel_name = "
              + kernel.name()
              + " \nkernel_launch_uid = "
              + seq
              + " \ngpu_sim_cycle = "
              + kernel.cycles()
              + "\ngpu_tot_sim_cycle = "
              + totalCycles
              + "\ngpu_tot_sim_insn = "
              + totalInsn
              + "\ngpgpu_silicon_slowdown = 1000x\n";
      output.accept(simId, run.id(), seq++, block.getBytes(UTF_8));
    }
  }

  @Override
  public void close() {
    database.close();
  }
}
