package dev.cascade.core;

import java.util.List;

/**
 * One page of {@link Runs#list(RunQuery)}: runs newest first, each with its sims.
 *
 * @param runs the page's runs
 * @param nextCursor what to pass as {@link RunQuery#cursor()} for the next page; null when this is
 *     the last
 */
public record RunPage(List<Run> runs, String nextCursor) {

  public RunPage {
    runs = List.copyOf(runs);
  }
}
