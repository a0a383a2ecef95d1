package dev.cascade.core;

import dev.cascade.core.spi.LaunchException;
import dev.cascade.core.spi.Launcher;
import dev.cascade.core.spi.SimLaunch;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** A launcher that starts nothing: it records launches and stops, and can hold launches open. */
final class RecordingLauncher implements Launcher {

  final List<SimLaunch> launches = new CopyOnWriteArrayList<>();
  final List<String> stops = new CopyOnWriteArrayList<>();
  final AtomicInteger inFlight = new AtomicInteger();
  final AtomicInteger peakInFlight = new AtomicInteger();
  volatile CountDownLatch gate = new CountDownLatch(0);
  volatile String failWith;

  /** The slots this launcher says it has; none (a scheduler's job) unless a test sets them. */
  volatile OptionalInt slots = OptionalInt.empty();

  @Override
  public OptionalInt slots() {
    return slots;
  }

  @Override
  public String name() {
    return "recording";
  }

  @Override
  public String launch(SimLaunch launch) throws LaunchException {
    attempts.add(launch.simId());
    peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try {
      gate.await();
      if (failWith != null) {
        throw new LaunchException(failWith);
      }
      launches.add(launch);
      return "ref-" + launch.simId();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException("interrupted");
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /** Sims whose launch was called, in call order, whether or not it returned. */
  final List<String> attempts = new CopyOnWriteArrayList<>();

  /** Sims this launcher says it finds running without a stored ref, with their refs. */
  final Map<String, String> running = new ConcurrentHashMap<>();

  @Override
  public Map<String, String> findRunning(Set<String> simIds) {
    Map<String, String> found = new java.util.HashMap<>(running);
    found.keySet().retainAll(simIds);
    return found;
  }

  /** Refs whose process this launcher says has ended. */
  final Set<String> ended = ConcurrentHashMap.newKeySet();

  @Override
  public boolean hasEnded(String launcherRef) {
    return ended.contains(launcherRef);
  }

  @Override
  public void stop(String launcherRef) {
    stops.add(launcherRef);
  }
}
