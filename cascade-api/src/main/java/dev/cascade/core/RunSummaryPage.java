package dev.cascade.core;

import java.util.List;

/**
 * One page of the runs list as {@code GET /api/runs} answers it: each run's summary, without its
 * sims, so a page costs one request however large its runs are.
 *
 * @param runs the page's runs, newest first
 * @param nextCursor what to pass as {@link RunQuery#cursor()} for the next page; null when this is
 *     the last
 */
public record RunSummaryPage(List<RunSummary> runs, String nextCursor) {

  public RunSummaryPage {
    runs = List.copyOf(runs);
  }

  /** The summaries of {@code page}'s runs, with its cursor. */
  public static RunSummaryPage of(RunPage page) {
    return new RunSummaryPage(page.runs().stream().map(RunSummary::of).toList(), page.nextCursor());
  }
}
