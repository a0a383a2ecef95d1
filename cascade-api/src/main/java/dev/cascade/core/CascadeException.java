package dev.cascade.core;

import java.util.Objects;

/**
 * Cascade's one unchecked root: what failed, with a code that maps to an HTTP status and a CLI exit
 * code, and the request field it concerns when there is one. Messages name the offending value and
 * say what to do.
 */
public class CascadeException extends RuntimeException {

  private final ErrorCode code;
  private final String field;

  public CascadeException(ErrorCode code, String message) {
    this(code, message, null, null);
  }

  public CascadeException(ErrorCode code, String message, String field) {
    this(code, message, field, null);
  }

  public CascadeException(ErrorCode code, String message, String field, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
    this.field = field;
  }

  public ErrorCode code() {
    return code;
  }

  /** The request field the error is about ({@code "entries[1].count"}); null when none. */
  public String field() {
    return field;
  }
}
