package dev.cascade.core;

/**
 * What went wrong, as an HTTP status for the API and an exit code for the CLI: 2 (usage) when what
 * the caller named or sent is wrong, a bad value or a trace, run, sim or config that does not exist
 * (a typo is the usual reason); 1 (failure) when a sound request could not be done.
 */
public enum ErrorCode {
  BAD_REQUEST(400, 2),
  UNAUTHORIZED(401, 1),
  FORBIDDEN(403, 1),
  NOT_FOUND(404, 2),
  CONFLICT(409, 1),
  PAYLOAD_TOO_LARGE(413, 2),
  INVALID(422, 2),
  UNAVAILABLE(503, 1),
  INTERNAL(500, 1);

  private final int httpStatus;
  private final int exitCode;

  ErrorCode(int httpStatus, int exitCode) {
    this.httpStatus = httpStatus;
    this.exitCode = exitCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int exitCode() {
    return exitCode;
  }

  /** The snake_case code used in error bodies ({@code "not_found"}). */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
