package dev.cascade.bench;

import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.util.concurrent.CountDownLatch;

/**
 * A launcher that starts nothing: the ingest benchmark plays every sim itself. Its launch calls
 * wait (until Cascade closes and interrupts them), so the first few sims stay {@code launching} and
 * the rest {@code pending} without a database write per launch: the load is all heartbeats and
 * chunks.
 */
final class GatedLauncher implements Launcher {

  private final CountDownLatch never = new CountDownLatch(1);

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String launch(SimLaunch launch) throws LaunchException {
    try {
      never.await();
      return "bench:" + launch.simId();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException("the benchmark is over", true, e);
    }
  }

  @Override
  public void stop(String launcherRef) {
    // nothing runs
  }
}
