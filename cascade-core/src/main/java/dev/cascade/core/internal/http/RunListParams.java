package dev.cascade.core.internal.http;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.RunQuery;
import dev.cascade.core.RunState;
import io.javalin.http.Context;
import java.util.List;

/**
 * The query of {@code GET /api/runs}: {@code ?trace=&state=&owner=&limit=&cursor=}, each at most
 * once; a bad one is a 400 naming the parameter and its value.
 */
final class RunListParams {

  static final List<String> NAMES = List.of("trace", "state", "owner", "limit", "cursor");

  private RunListParams() {}

  static RunQuery read(Context ctx) {
    for (String name : NAMES) {
      if (ctx.queryParams(name).size() > 1) {
        throw bad(
            name, name + " may be given once; got it " + ctx.queryParams(name).size() + " times");
      }
    }
    String state = ctx.queryParam("state");
    RunState runState = state == null ? null : RunQuery.state(state);
    return new RunQuery(
        ctx.queryParam("trace"),
        runState,
        ctx.queryParam("owner"),
        limit(ctx.queryParam("limit")),
        ctx.queryParam("cursor"));
  }

  private static int limit(String text) {
    if (text == null) {
      return RunQuery.DEFAULT_LIMIT;
    }
    if (text.isEmpty()
        || text.length() > 9
        || !text.chars().allMatch(c -> c >= '0' && c <= '9')
        || Integer.parseInt(text) < 1
        || Integer.parseInt(text) > RunQuery.MAX_LIMIT) {
      throw bad(
          "limit",
          "limit must be a whole number from 1 to "
              + RunQuery.MAX_LIMIT
              + "; got \""
              + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
              + "\"");
    }
    return Integer.parseInt(text);
  }

  private static CascadeException bad(String name, String message) {
    return new CascadeException(ErrorCode.BAD_REQUEST, message, name);
  }
}
