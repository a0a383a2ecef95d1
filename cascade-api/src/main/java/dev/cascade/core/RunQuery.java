package dev.cascade.core;

/**
 * Which runs to list and how many at a time ({@link Runs#list(RunQuery)}): newest first, those of
 * one trace, in one state and of one owner (each null for any), at most {@code limit} of them,
 * after the page that gave {@code cursor}.
 *
 * @param traceId only runs of this trace; null for any
 * @param state only runs in this state (derived from their sims when read); null for any
 * @param owner only runs of this owner; null for any
 * @param limit the most runs in one page, 1 to {@link #MAX_LIMIT}
 * @param cursor {@link RunPage#nextCursor()} of the page before; null for the first page
 * @throws CascadeException {@code bad_request} naming the field, for a limit out of range or an
 *     empty trace, owner or cursor: these come from people (a query string, an option)
 */
public record RunQuery(String traceId, RunState state, String owner, int limit, String cursor) {

  /** The page size when none is asked for. */
  public static final int DEFAULT_LIMIT = 50;

  /** The largest page. */
  public static final int MAX_LIMIT = 500;

  public RunQuery {
    requireNotBlank("trace", traceId);
    requireNotBlank("owner", owner);
    requireNotBlank("cursor", cursor);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST,
          "limit must be a whole number from 1 to " + MAX_LIMIT + "; got \"" + limit + "\"",
          "limit");
    }
  }

  /** The first page of every run, {@value #DEFAULT_LIMIT} at a time. */
  public static RunQuery firstPage() {
    return new RunQuery(null, null, null, DEFAULT_LIMIT, null);
  }

  public RunQuery withTrace(String traceId) {
    return new RunQuery(traceId, state, owner, limit, cursor);
  }

  public RunQuery withState(RunState state) {
    return new RunQuery(traceId, state, owner, limit, cursor);
  }

  public RunQuery withOwner(String owner) {
    return new RunQuery(traceId, state, owner, limit, cursor);
  }

  public RunQuery withLimit(int limit) {
    return new RunQuery(traceId, state, owner, limit, cursor);
  }

  public RunQuery withCursor(String cursor) {
    return new RunQuery(traceId, state, owner, limit, cursor);
  }

  /**
   * The state named {@code text} as the API writes it ({@code active}, {@code succeeded}, {@code
   * partial}, {@code cancelled}, {@code failed}).
   *
   * @throws CascadeException {@code bad_request} naming {@code state} and the text otherwise
   */
  public static RunState state(String text) {
    for (RunState state : RunState.values()) {
      if (state.wireName().equals(text)) {
        return state;
      }
    }
    StringBuilder names = new StringBuilder();
    for (RunState state : RunState.values()) {
      names.append(names.isEmpty() ? "" : ", ").append(state.wireName());
    }
    throw new CascadeException(
        ErrorCode.BAD_REQUEST,
        "state must be one of " + names + "; got \"" + shorten(text) + "\"",
        "state");
  }

  private static void requireNotBlank(String field, String value) {
    if (value != null && value.isBlank()) {
      throw new CascadeException(
          ErrorCode.BAD_REQUEST,
          field + " must not be empty; leave it out for any " + field,
          field);
    }
  }

  static String shorten(String text) {
    String safe = text == null ? "null" : text;
    return safe.length() > 40 ? safe.substring(0, 40) + "..." : safe;
  }
}
