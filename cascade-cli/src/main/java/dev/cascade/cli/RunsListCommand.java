package dev.cascade.cli;

import dev.cascade.core.RunQuery;
import dev.cascade.core.RunSummary;
import dev.cascade.core.RunSummaryPage;
import dev.cascade.core.json.RunListJson;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cascade runs list}: a page of the runs of a running Cascade, newest first, filtered by
 * trace, state and owner; the last line names the command for the next page. One request per page:
 * it prints the summaries the server lists, never reading the runs' sims.
 */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "The runs on a running Cascade server, newest first, a page at a time: id, trace, state,"
          + " owner, entries, sims by state, kernels done of total, and age. Filter with --trace,"
          + " --state and --owner; the last line gives the command for the next page.",
      "Exit code 0 when listed, 1 when the server could not be asked, 2 on a usage error."
    })
final class RunsListCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Option(
      names = "--json",
      description = "Print the API's JSON: {\"runs\": [...], \"next_cursor\": ...}.")
  boolean json;

  @Option(names = "--trace", paramLabel = "TRACE", description = "Only runs of this trace.")
  String trace;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      description = "Only runs in this state: active, succeeded, partial, cancelled or failed.")
  String state;

  @Option(names = "--owner", paramLabel = "OWNER", description = "Only runs of this owner.")
  String owner;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "" + RunQuery.DEFAULT_LIMIT,
      description =
          "The most runs in the page, 1 to " + RunQuery.MAX_LIMIT + " (default ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--cursor",
      paramLabel = "CURSOR",
      description = "The page after the one that printed this cursor.")
  String cursor;

  @Override
  public Integer call() throws InterruptedException {
    return api.call(
        client -> {
          RunQuery query =
              new RunQuery(
                  trace, state == null ? null : RunQuery.state(state), owner, limit, cursor);
          RunSummaryPage page = client.runSummaries(query);
          return Printed.answer(
              spec,
              json,
              RunListJson.writePage(page),
              out -> print(out, page, client.url(), this::nextPage));
        });
  }

  /** The command that prints the page after the one that gave {@code nextCursor}. */
  private String nextPage(String nextCursor) {
    StringBuilder command = new StringBuilder("cascade runs list");
    if (trace != null) {
      command.append(" --trace ").append(trace);
    }
    if (state != null) {
      command.append(" --state ").append(state);
    }
    if (owner != null) {
      command.append(" --owner ").append(owner);
    }
    if (limit != RunQuery.DEFAULT_LIMIT) {
      command.append(" --limit ").append(limit);
    }
    return command.append(" --cursor ").append(nextCursor).toString();
  }

  private static void print(
      PrintWriter out, RunSummaryPage page, String url, Function<String, String> nextPage) {
    List<RunSummary> runs = page.runs();
    if (runs.isEmpty()) {
      out.println(
          "No runs on "
              + url
              + " that match; start one with: cascade runs create TRACE CONFIG:COUNT...");
      return;
    }
    Instant now = Instant.now();
    TextTable table =
        new TextTable(
            "ID",
            "TRACE",
            "STATE",
            "OWNER",
            ">SIMS",
            "ENTRIES",
            "SIMS BY STATE",
            ">KERNELS",
            ">AGE");
    for (RunSummary run : runs) {
      table.row(
          run.id(),
          run.traceId(),
          run.state().wireName(),
          run.owner(),
          run.simCount(),
          Printed.entries(run.entries()),
          byState(run),
          run.kernelsDone() + "/" + run.kernelsTotal(),
          Formats.ago(run.createdAt().toString(), now));
    }
    table.print(out);
    if (page.nextCursor() != null) {
      out.println("More: " + nextPage.apply(page.nextCursor()));
    }
  }

  /** How many sims are in each state that has any, as the API counts them: {@code running 2}. */
  private static String byState(RunSummary run) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    run.simsByState().forEach((state, count) -> counts.put(state.wireName(), count));
    return Printed.counts(counts);
  }
}
