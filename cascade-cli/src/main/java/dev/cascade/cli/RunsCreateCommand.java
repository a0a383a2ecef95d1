package dev.cascade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade runs create TRACE CONFIG:COUNT...}: starts a run on a running Cascade. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = {
      "Create a run: the trace TRACE on each GPU config CONFIG, COUNT replicas of each (1 to 64;"
          + " a bare CONFIG is one). The server launches the sims in the background.",
      "Exit code 0 when created (with --watch: when every sim succeeded), 1 when the server"
          + " refused it or could not be asked, 2 on a usage error."
    })
final class RunsCreateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(index = "0", paramLabel = "TRACE", description = "The trace id.")
  String traceId;

  @Parameters(
      index = "1..*",
      arity = "1..*",
      paramLabel = "CONFIG:COUNT",
      converter = ConfigCount.Converter.class,
      description = "A GPU config and how many replicas of it, such as SM90_H100:2.")
  List<ConfigCount> entries;

  @Option(names = "--json", description = "Print the created run as the API's JSON.")
  boolean json;

  @Option(
      names = "--watch",
      description = "Then follow the run as `cascade runs watch` does, until it finishes.")
  boolean watch;

  @Option(
      names = "--plain",
      description =
          "With --watch: append a line whenever a sim changes instead of redrawing in place (the"
              + " default when stdout is not a terminal).")
  boolean plain;

  @Override
  public Integer call() throws InterruptedException {
    if (json && watch) {
      throw new ParameterException(
          spec.commandLine(), "--json and --watch cannot go together; create, then watch");
    }
    ApiClient client = api.client();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("trace_id", traceId);
    List<Map<String, Object>> items = new ArrayList<>();
    for (ConfigCount entry : entries) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("gpu_config", entry.gpuConfig());
      item.put("count", entry.count());
      items.add(item);
    }
    body.put("entries", items);
    JsonNode run = client.post("/api/runs", body);
    PrintWriter out = spec.commandLine().getOut();
    String runId = Formats.text(run, "id");
    if (json) {
      out.println(Formats.json(run));
      out.flush();
      return 0;
    }
    out.println(
        "Created run "
            + runId
            + " on trace "
            + Formats.text(run, "trace_id")
            + ": "
            + run.path("sim_count").asInt()
            + " sims ("
            + RunsListCommand.entries(run)
            + ")");
    if (!watch) {
      out.println("Watch it with: cascade runs watch " + runId);
      out.flush();
      return 0;
    }
    out.flush();
    boolean interactive = !plain && RunWatcher.isTerminal();
    return new RunWatcher(client, runId, out, interactive).watch();
  }
}
