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
    SimProgress progress) {

  public Sim {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(gpuConfig, "gpuConfig");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(progress, "progress");
    if (replica < 0) {
      throw new IllegalArgumentException("replica must be 0 or more; got " + replica);
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
        SimProgress.none(kernelsTotal));
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
        progress);
  }
}
