package dev.cascade.core.spi;

/** A sim could not be started; the message says why and becomes the sim's error. */
public class LaunchException extends Exception {

  private final boolean transientFailure;

  public LaunchException(String message) {
    this(message, false, null);
  }

  public LaunchException(String message, boolean transientFailure, Throwable cause) {
    super(message, cause);
    this.transientFailure = transientFailure;
  }

  /** True when trying again later may work (a network hiccup), false when it never will. */
  public boolean isTransient() {
    return transientFailure;
  }
}
