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

/** {@code cascade runs retry ID}: launches a run's failed and cancelled sims again. */
@Command(
    name = "retry",
    mixinStandardHelpOptions = true,
    description = {
      "Retry a run: its failed and cancelled sims are launched again as new attempts; each"
          + " earlier attempt keeps its log and error. The run's state is that of each sim's"
          + " latest attempt.",
      "Exit code 0 when relaunched, 1 when there is no such run, nothing to retry or the server"
          + " could not be asked, 2 on a usage error."
    })
final class RunsRetryCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id.")
  String id;

  @Option(names = "--json", description = "Print the run after retrying, as the API's JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    return api.call(
        client -> {
          int before = client.runs().get(runId).sims().size();
          Run run = client.runs().retry(runId);
          return Printed.answer(
              spec,
              json,
              ApiJson.writeRun(run, Instant.now()),
              out ->
                  out.println(
                      "Retried run "
                          + runId
                          + ": "
                          + (run.sims().size() - before)
                          + " sims launched again; watch it with: cascade runs watch "
                          + runId));
        });
  }
}
