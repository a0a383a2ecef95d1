package dev.cascade.sail;

import java.time.Duration;
import java.util.Objects;

/**
 * How hard the {@link SailLauncher} tries. Immutable; start from {@link #defaults()} and change
 * what you need with the {@code withX} methods, each of which checks its value at once.
 *
 * @param attempts how many times a Sail call that failed transiently is made before the launch
 *     gives up (3)
 * @param firstBackoff the wait before the second try; it doubles before each further one (1 s)
 * @param callTimeout how long one Sail call may take before it counts as a transient failure (2
 *     min; a first checkpoint of a large disk is the slowest call)
 * @param launchBudget how long one whole launch may take, tries and waits included, before it gives
 *     up (4 min 30 s, inside the 5 min the run manager allows a launch call)
 */
public record SailLauncherSettings(
    int attempts, Duration firstBackoff, Duration callTimeout, Duration launchBudget) {

  public SailLauncherSettings {
    if (attempts < 1 || attempts > 10) {
      throw new IllegalArgumentException("attempts must be 1 to 10; got " + attempts);
    }
    Objects.requireNonNull(firstBackoff, "firstBackoff");
    if (firstBackoff.isNegative()) {
      throw new IllegalArgumentException("firstBackoff cannot be negative; got " + firstBackoff);
    }
    requirePositive("callTimeout", callTimeout);
    requirePositive("launchBudget", launchBudget);
  }

  /** 3 tries, 1 s then 2 s between them, 2 min per call, 4 min 30 s per launch. */
  public static SailLauncherSettings defaults() {
    return new SailLauncherSettings(
        3, Duration.ofSeconds(1), Duration.ofMinutes(2), Duration.ofSeconds(270));
  }

  public SailLauncherSettings withAttempts(int attempts) {
    return new SailLauncherSettings(attempts, firstBackoff, callTimeout, launchBudget);
  }

  public SailLauncherSettings withFirstBackoff(Duration firstBackoff) {
    return new SailLauncherSettings(attempts, firstBackoff, callTimeout, launchBudget);
  }

  public SailLauncherSettings withCallTimeout(Duration callTimeout) {
    return new SailLauncherSettings(attempts, firstBackoff, callTimeout, launchBudget);
  }

  public SailLauncherSettings withLaunchBudget(Duration launchBudget) {
    return new SailLauncherSettings(attempts, firstBackoff, callTimeout, launchBudget);
  }

  private static void requirePositive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive; got " + value);
    }
  }
}
