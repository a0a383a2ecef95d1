package dev.cascade.agent;

import java.net.URI;
import java.nio.file.Path;

/** Sim contracts for tests that launch a sim by hand, on the built-in SM90_H100. */
public final class TestContracts {

  private TestContracts() {}

  /** Sim {@code simId}, replica 0 of {@code runId}, on trace {@code t1} in {@code traceDir}. */
  public static SimContract of(String simId, String runId, Path dataDir, Path traceDir) {
    return new SimContract(
        URI.create("http://127.0.0.1:9"),
        simId,
        "token-" + simId,
        runId,
        0,
        "t1",
        traceDir,
        "SM90_H100",
        null,
        dataDir,
        "simulate");
  }
}
