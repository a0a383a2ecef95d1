package dev.cascade.core.internal.run;

/** What one launch attempt came to, for the caller to apply to the sim. */
sealed interface LaunchOutcome {

  /** The launcher started the sim; {@code ref} finds it again. */
  record Launched(String launcherName, String ref) implements LaunchOutcome {}

  /** The launch failed for good; the sim fails with {@code error}. */
  record Failed(String error) implements LaunchOutcome {}

  /** Cascade is shutting down: the sim is left as it is for the next start to settle. */
  record Abandoned() implements LaunchOutcome {}
}
