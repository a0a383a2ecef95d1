package dev.cascade.core;

import java.time.Instant;
import java.util.Objects;

/**
 * One simulator process working through a run's trace on one GPU config. Replicas of the same entry
 * differ only in {@code replica}, numbered from 0.
 *
 * @param launcherRef what the launcher returned (a process id, a sandbox id); null before launch
 * @param error why the sim failed; null unless it did
 * @param exitCode the simulator's exit code when it reported one; null otherwise
 * @param launchedAt when the launch call was made; null while pending
 * @param lastHeartbeatAt the latest heartbeat; null before the first
 * @param finishedAt when the sim reached a finished state; null until then
 * @param launcherName the launcher that started it ({@code local}, {@code sail}); null before
 * @param progress how far its output says it has come
 * @param attempt which attempt at this config and replica it is, from 1; a retry makes the next
 * @param kernels the kernel window it simulates ({@code "2-3"}, positions in the trace's {@code
 *     kernelslist.g} from 1); null for the whole trace
 * @param failureClass why it failed, as a class; null unless it failed
 * @param provenance what produced its numbers
 * @param peakMemoryBytes the most resident memory (RSS) its process tree held, in bytes, sampled
 *     while it ran: the larger of its launcher's figure (the whole tree locally, Slurm's MaxRSS)
 *     and its agent's (the simulator's tree, which is all a Sail sim has); null where neither
 *     measured it (before it ran, or a simulator inside the agent's JVM on such a launcher)
 */
public record Sim(
    String id,
    String runId,
    String gpuConfig,
    int replica,
    SimState state,
    String launcherRef,
    String error,
    Integer exitCode,
    Instant createdAt,
    Instant launchedAt,
    Instant lastHeartbeatAt,
    Instant finishedAt,
    String launcherName,
    SimProgress progress,
    int attempt,
    String kernels,
    FailureClass failureClass,
    Provenance provenance,
    Long peakMemoryBytes) {

  public Sim {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(provenance, "provenance");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be 1 or more; got " + attempt);
    }
    if (replica < 0) {
      throw new IllegalArgumentException("replica must be 0 or more; got " + replica);
    }
    if (peakMemoryBytes != null && peakMemoryBytes < 0) {
      throw new IllegalArgumentException(
          "peakMemoryBytes cannot be negative; got " + peakMemoryBytes);
    }
  }

  /** A new sim, {@code pending}, nothing launched, on a trace of {@code kernelsTotal} kernels. */
  public static Sim pending(
      String id, String runId, String gpuConfig, int replica, int kernelsTotal, Instant now) {
    return new Sim(
        id,
        runId,
        gpuConfig,
        replica,
        SimState.PENDING,
        null,
        null,
        null,
        now,
        null,
        null,
        null,
        null,
        SimProgress.none(kernelsTotal),
        1,
        null,
        null,
        Provenance.UNKNOWN,
        null);
  }

  /** A new sim, {@code pending}, on a trace whose kernel count does not matter here. */
  public static Sim pending(String id, String runId, String gpuConfig, int replica, Instant now) {
    return pending(id, runId, gpuConfig, replica, 0, now);
  }

  public Sim withState(SimState newState) {
    return new Sim(
        id,
        runId,
        gpuConfig,
        replica,
        newState,
        launcherRef,
        error,
        exitCode,
        createdAt,
        launchedAt,
        lastHeartbeatAt,
        finishedAt,
        launcherName,
        progress,
        attempt,
        kernels,
        failureClass,
        provenance,
        peakMemoryBytes);
  }

  /** This sim as its next attempt would start: a new id, pending, its provenance's inputs kept. */
  public Sim nextAttempt(String newId, Instant now) {
    return new Sim(
        newId,
        runId,
        gpuConfig,
        replica,
        SimState.PENDING,
        null,
        null,
        null,
        now,
        null,
        null,
        null,
        null,
        SimProgress.none(progress.kernelsTotal()),
        attempt + 1,
        kernels,
        null,
        new Provenance(
            provenance.traceHash(),
            provenance.configHash(),
            provenance.simulator(),
            null,
            null,
            null),
        null);
  }

  /** A copy simulating only the kernel window {@code window} of {@code windowSize} kernels. */
  public Sim withKernels(String window, int windowSize) {
    return new Sim(
        id,
        runId,
        gpuConfig,
        replica,
        state,
        launcherRef,
        error,
        exitCode,
        createdAt,
        launchedAt,
        lastHeartbeatAt,
        finishedAt,
        launcherName,
        SimProgress.none(windowSize),
        attempt,
        window,
        failureClass,
        provenance,
        peakMemoryBytes);
  }

  public Sim withProvenance(Provenance newProvenance) {
    return new Sim(
        id,
        runId,
        gpuConfig,
        replica,
        state,
        launcherRef,
        error,
        exitCode,
        createdAt,
        launchedAt,
        lastHeartbeatAt,
        finishedAt,
        launcherName,
        progress,
        attempt,
        kernels,
        failureClass,
        newProvenance,
        peakMemoryBytes);
  }
}
