package dev.cascade.core.json;

import dev.cascade.core.FailureClass;
import dev.cascade.core.KernelComparison;
import dev.cascade.core.KernelResult;
import dev.cascade.core.Provenance;
import dev.cascade.core.Run;
import dev.cascade.core.RunEntry;
import dev.cascade.core.Sim;
import dev.cascade.core.SimProgress;
import dev.cascade.core.SimState;
import dev.cascade.core.Spread;
import dev.cascade.core.Trace;
import dev.cascade.core.TraceKernel;
import dev.cascade.core.TraceState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One of each record, every optional field set somewhere, for the mapping's tests. */
public final class JsonSamples {

  public static final Instant T0 = Instant.parse("2026-11-29T22:50:28.123Z");

  private JsonSamples() {}

  public static Trace trace() {
    return new Trace(
        "demo",
        TraceState.READY,
        null,
        "sm_90",
        "SM90_H100",
        "facebook/opt-125m",
        List.of("model.decoder.layers.10.self_attn"),
        2,
        List.of(
            new TraceKernel(1, "kernel-1.traceg", "kernel_1", "2,1,1", "32,1,1", 4000L),
            new TraceKernel(2, "kernel-2.traceg", null, null, null, null)),
        18342,
        false,
        T0,
        T0.plusSeconds(12));
  }

  public static Sim runningSim() {
    return new Sim(
        "s_1",
        "r_1",
        "SM90_H100",
        1,
        SimState.RUNNING,
        "48211",
        null,
        null,
        T0,
        T0.plusMillis(18),
        T0.plusSeconds(8),
        null,
        "local",
        new SimProgress(
            1, 3, "kernel_2", Map.of("cycles", 1000L, "ipc", 4.0, "instructions", 4000L), null),
        1,
        "2-4",
        null,
        new Provenance(
            "sha256:aa", "sha256:bb", "cascade-emulator-2.0", "accelsim-1", "gpgpusim-1", null),
        612L * 1024 * 1024);
  }

  public static Sim failedSim() {
    return new Sim(
        "s_2",
        "r_1",
        "SM90_H200",
        0,
        SimState.FAILED,
        null,
        "deadlock detected",
        1,
        T0,
        T0,
        T0,
        T0.plusSeconds(3),
        "sail",
        new SimProgress(0, 3, null, Map.of(), "failed"),
        2,
        null,
        FailureClass.DEADLOCK,
        Provenance.UNKNOWN.withReusedFrom("s_0"),
        null);
  }

  public static Run run() {
    return new Run(
        "r_1",
        "demo",
        List.of(new RunEntry("SM90_H100", 2), new RunEntry("SM90_H200", 1, "1-2,3")),
        T0,
        List.of(runningSim(), failedSim()));
  }

  public static KernelResult kernel() {
    Map<String, Number> stats = new LinkedHashMap<>();
    stats.put("gpu_sim_cycle", 1000L);
    stats.put("gpu_ipc", 2.0);
    stats.put("gpu_occupancy", 16.4256);
    return new KernelResult(0, "kernel_1", 1, 0, 1000, 4000, 4.0, stats);
  }

  public static KernelComparison comparison(String name) {
    return new KernelComparison(
        name,
        0,
        List.of(0, 1),
        Spread.of(1000, 1010),
        Spread.of(4000, 4000),
        Spread.of(4.0, 3.96),
        Spread.of(0.505, 0.510));
  }
}
