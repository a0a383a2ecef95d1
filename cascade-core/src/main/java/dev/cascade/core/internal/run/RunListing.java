package dev.cascade.core.internal.run;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.Run;
import dev.cascade.core.RunPage;
import dev.cascade.core.RunQuery;
import dev.cascade.core.internal.store.RunRepository;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Pages of runs, newest first, by keyset: a cursor is the creation time and id of a page's last
 * run, so a page costs the same however many runs came before it, and runs created meanwhile
 * neither repeat nor shift later pages. Trace and owner filter in SQL; the state, derived from the
 * sims, filters as the runs are read, in batches until the page is full.
 */
final class RunListing {

  private static final int MIN_BATCH = 100;

  private final RunRepository runs;

  RunListing(RunRepository runs) {
    this.runs = runs;
  }

  RunPage page(RunQuery query) {
    Instant createdAt = null;
    String id = null;
    if (query.cursor() != null) {
      String[] position = decode(query.cursor());
      createdAt = Instant.parse(position[0]);
      id = position[1];
    }
    List<Run> page = new ArrayList<>();
    int batch = Math.max(MIN_BATCH, query.limit() + 1);
    while (true) {
      List<Run> read = runs.page(query.traceId(), query.owner(), createdAt, id, batch);
      for (Run run : read) {
        if (query.state() == null || run.state() == query.state()) {
          page.add(run);
          if (page.size() > query.limit()) {
            List<Run> shown = page.subList(0, query.limit());
            return new RunPage(shown, encode(shown.getLast()));
          }
        }
      }
      if (read.size() < batch) {
        return new RunPage(page, null);
      }
      Run last = read.getLast();
      createdAt = last.createdAt();
      id = last.id();
    }
  }

  private static String encode(Run run) {
    String position = run.createdAt() + "|" + run.id();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(position.getBytes(StandardCharsets.UTF_8));
  }

  private static String[] decode(String cursor) {
    try {
      String position = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int bar = position.indexOf('|');
      if (bar > 0 && bar < position.length() - 1) {
        String[] parts = {position.substring(0, bar), position.substring(bar + 1)};
        Instant.parse(parts[0]);
        return parts;
      }
    } catch (IllegalArgumentException | DateTimeParseException e) {
      // said below
    }
    throw new CascadeException(
        ErrorCode.BAD_REQUEST,
        "cursor \""
            + (cursor.length() > 40 ? cursor.substring(0, 40) + "..." : cursor)
            + "\" is not one a runs page gave; use a page's next_cursor, or leave it out for the"
            + " first page",
        "cursor");
  }
}
