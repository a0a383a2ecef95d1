package dev.cascade.sail;

import java.util.Objects;

/**
 * A Sail call failed. The {@link Kind} tells the launcher what to do about it: look elsewhere
 * ({@code NOT_FOUND}), try again ({@code TRANSIENT}), or give up ({@code PERMANENT}).
 */
public final class SailException extends Exception {

  /** What kind of failure it was, which decides whether trying again can help. */
  public enum Kind {
    /** The sandbox, checkpoint or exec named does not exist (any more). */
    NOT_FOUND,
    /** Trying again later may work: the service was unreachable, busy or slow to answer. */
    TRANSIENT,
    /** Trying again will not help: a bad key, a refused request, a CLI that is not there. */
    PERMANENT
  }

  private final Kind kind;

  public SailException(Kind kind, String message) {
    this(kind, message, null);
  }

  public SailException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public Kind kind() {
    return kind;
  }

  public boolean isTransient() {
    return kind == Kind.TRANSIENT;
  }

  public boolean isNotFound() {
    return kind == Kind.NOT_FOUND;
  }
}
