package dev.cascade.cli;

import dev.cascade.core.Run;
import dev.cascade.core.SimState;
import dev.cascade.core.json.ApiJson;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cascade runs list}: the runs of a running Cascade, newest first. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "The runs on a running Cascade server, newest first: id, trace, state, entries, sims by"
          + " state and age.",
      "Exit code 0 when listed, 1 when the server could not be asked, 2 on a usage error."
    })
final class RunsListCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Option(names = "--json", description = "Print the API's JSON: {\"runs\": [...]}.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    return api.call(
        client -> {
          List<Run> runs = client.runs().list();
          return Printed.answer(
              spec, json, ApiJson.writeRunList(runs), out -> print(out, runs, client.url()));
        });
  }

  private static void print(PrintWriter out, List<Run> runs, String url) {
    if (runs.isEmpty()) {
      out.println(
          "No runs on " + url + "; start one with: cascade runs create TRACE CONFIG:COUNT...");
      return;
    }
    Instant now = Instant.now();
    TextTable table =
        new TextTable("ID", "TRACE", "STATE", ">SIMS", "ENTRIES", "SIMS BY STATE", ">AGE");
    for (Run run : runs) {
      table.row(
          run.id(),
          run.traceId(),
          run.state().wireName(),
          run.sims().size(),
          Printed.entries(run.entries()),
          byState(run),
          Formats.ago(run.createdAt().toString(), now));
    }
    table.print(out);
  }

  /** How many sims are in each state that has any, as the API counts them: {@code running 2}. */
  static String byState(Run run) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (SimState state : SimState.values()) {
      int count = (int) run.sims().stream().filter(sim -> sim.state() == state).count();
      if (count > 0) {
        counts.put(state.wireName(), count);
      }
    }
    return Printed.counts(counts);
  }
}
