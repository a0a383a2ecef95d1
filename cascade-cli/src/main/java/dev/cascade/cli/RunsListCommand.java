package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
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
    ApiClient client = api.client();
    JsonNode answer = client.get("/api/runs");
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Formats.json(answer));
    } else if (answer.path("runs").isEmpty()) {
      out.println(
          "No runs on "
              + client.baseUrl()
              + "; start one with: cascade runs create TRACE CONFIG:COUNT...");
    } else {
      Instant now = Instant.now();
      TextTable table =
          new TextTable("ID", "TRACE", "STATE", ">SIMS", "ENTRIES", "SIMS BY STATE", ">AGE");
      for (JsonNode run : answer.path("runs")) {
        table.row(
            Formats.text(run, "id"),
            Formats.text(run, "trace_id"),
            Formats.text(run, "state"),
            run.path("sim_count").asInt(),
            entries(run),
            byState(run.path("sims_by_state")),
            Formats.ago(Formats.text(run, "created_at"), now));
      }
      table.print(out);
    }
    out.flush();
    return 0;
  }

  /** A run's entries as {@code SM90_H100 x2, SM90_H200 x1}. */
  static String entries(JsonNode run) {
    List<String> entries = new ArrayList<>();
    for (JsonNode entry : run.path("entries")) {
      entries.add(Formats.text(entry, "gpu_config") + " x" + entry.path("count").asInt());
    }
    return String.join(", ", entries);
  }

  /** {@code {"running": 2, "succeeded": 1}} as {@code running 2, succeeded 1}. */
  static String byState(JsonNode counts) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> count : counts.properties()) {
      parts.add(count.getKey() + " " + count.getValue().asInt());
    }
    return String.join(", ", parts);
  }
}
