package dev.cascade.cli;

import dev.cascade.core.Run;
import dev.cascade.core.json.ApiJson;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cascade runs rerun ID}: a new run of the same trace and entries. */
@Command(
    name = "rerun",
    mixinStandardHelpOptions = true,
    description = {
      "Rerun a run: creates a new run of the same trace with the same entries (configs, counts"
          + " and kernel windows).",
      "Exit code 0 when created, 1 when there is no such run or the server refused or could not"
          + " be asked, 2 on a usage error."
    })
final class RunsRerunCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id.")
  String id;

  @Option(names = "--json", description = "Print the new run as the API's JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    return api.call(
        client -> {
          Run run = client.runs().rerun(runId);
          return Printed.answer(
              spec,
              json,
              ApiJson.writeRun(run, Instant.now()),
              out ->
                  out.println(
                      "Created run "
                          + run.id()
                          + " again from "
                          + runId
                          + ": "
                          + run.sims().size()
                          + " sims; watch it with: cascade runs watch "
                          + run.id()));
        });
  }
}
