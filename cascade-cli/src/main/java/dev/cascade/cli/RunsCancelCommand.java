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

/** {@code cascade runs cancel ID}: cancels every unfinished sim of a run. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description = {
      "Cancel a run: every unfinished sim becomes cancelled and is stopped; sims that already"
          + " finished keep their results. Cancelling twice is harmless.",
      "Exit code 0 when cancelled, 1 when there is no such run or the server could not be asked,"
          + " 2 on a usage error."
    })
final class RunsCancelCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ApiOptions api;

  @Parameters(paramLabel = "ID", description = "The run id.")
  String id;

  @Option(names = "--json", description = "Print the run after cancelling, as the API's JSON.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    String runId = RunsCommand.requireRunId(spec, id);
    return api.call(
        client -> {
          Run run = client.runs().cancel(runId);
          return Printed.answer(
              spec,
              json,
              ApiJson.writeRun(run, Instant.now()),
              out ->
                  out.println(
                      "Cancelled run "
                          + runId
                          + ": it is "
                          + run.state().wireName()
                          + " (sims: "
                          + RunsShowCommand.byState(run)
                          + ")"));
        });
  }
}
