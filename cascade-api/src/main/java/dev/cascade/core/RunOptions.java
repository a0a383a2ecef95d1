package dev.cascade.core;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a run waits for slots: whose it is, for round-robin between people, and its priority.
 *
 * @param owner who the run belongs to: 1 to 64 of {@code A-Z a-z 0-9 . _ @ -}; {@value
 *     #DEFAULT_OWNER} unless given
 * @param priority higher starts first, from -1000 to 1000; 0 unless given
 * @param reuse whether each sim takes an earlier succeeded sim's results when their inputs, replica
 *     and kernel window match, instead of simulating ({@link Provenance#reusedFrom()})
 */
public record RunOptions(String owner, int priority, boolean reuse) {

  public static final String DEFAULT_OWNER = "local";
  public static final int MAX_PRIORITY = 1000;

  private static final Pattern OWNER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  public RunOptions {
    Objects.requireNonNull(owner, "owner");
    if (!OWNER.matcher(owner).matches()) {
      throw new IllegalArgumentException(
          "owner must be 1 to 64 of A-Z a-z 0-9 . _ @ -; got \"" + owner + "\"");
    }
    if (priority < -MAX_PRIORITY || priority > MAX_PRIORITY) {
      throw new IllegalArgumentException(
          "priority must be a whole number from -"
              + MAX_PRIORITY
              + " to "
              + MAX_PRIORITY
              + "; got "
              + priority);
    }
  }

  /** A run that simulates every sim. */
  public RunOptions(String owner, int priority) {
    this(owner, priority, false);
  }

  /** Owner {@value #DEFAULT_OWNER}, priority 0, no reuse. */
  public static RunOptions defaults() {
    return new RunOptions(DEFAULT_OWNER, 0);
  }

  public RunOptions withOwner(String owner) {
    return new RunOptions(owner, priority, reuse);
  }

  public RunOptions withPriority(int priority) {
    return new RunOptions(owner, priority, reuse);
  }

  public RunOptions withReuse(boolean reuse) {
    return new RunOptions(owner, priority, reuse);
  }
}
