package dev.cascade.core.spi;

import java.util.Objects;

/**
 * What came of launching one sim of a batch ({@link Launcher#launchAll}): its launcher ref, or why
 * it could not be started.
 *
 * @param ref the launcher ref, as {@link Launcher#launch} returns it; null when it failed
 * @param failure why the sim could not be started; null when it was
 */
public record LaunchResult(String ref, LaunchException failure) {

  public LaunchResult {
    if ((ref == null) == (failure == null)) {
      throw new IllegalArgumentException("a launch result has either a ref or a failure");
    }
  }

  public static LaunchResult launched(String ref) {
    return new LaunchResult(Objects.requireNonNull(ref, "ref"), null);
  }

  public static LaunchResult failed(LaunchException failure) {
    return new LaunchResult(null, Objects.requireNonNull(failure, "failure"));
  }

  public boolean isLaunched() {
    return ref != null;
  }
}
