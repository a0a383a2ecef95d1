package dev.cascade.bench;

import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A launcher that starts nothing: the ingest benchmark plays every sim itself. Its launch calls
 * wait (until Cascade closes and interrupts them), so the first few sims stay {@code launching} and
 * the rest {@code pending} without a database write per launch: the load is all heartbeats and
 * chunks.
 */
final class GatedLauncher implements Launcher {

  private final CountDownLatch never = new CountDownLatch(1);
  private final Map<String, String> tokens = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String launch(SimLaunch launch) throws LaunchException {
    tokens.put(launch.simId(), launch.contract().simToken());
    try {
      never.await();
      return "bench:" + launch.simId();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException("the benchmark is over", true, e);
    }
  }

  /**
   * The token sim {@code simId} was launched with, once {@code calls} launch calls arrived (they
   * never return, so no later launch makes a new token); null for a sim never launched.
   */
  String tokenOf(String simId, int calls) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (tokens.size() < calls && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      Thread.yield();
    }
    return tokens.get(simId);
  }

  @Override
  public void stop(String launcherRef) {
    // nothing runs
  }
}
